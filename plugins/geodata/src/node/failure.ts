import { ApiError } from '@werkbank/sdk/node';

/**
 * The failure maker of one part of the geodata plugin (`geodata-<part>`): a 400 with the reason
 * (`code`) and its message `<namespace>:errors.<code>` in German and English. `Reason` is the keys
 * of the part's English bundle, so a reason without a message does not compile.
 */
export function failureOf<Reason extends string>(namespace: string) {
  return (code: Reason, params: Record<string, unknown> = {}): ApiError =>
    ApiError.badRequest(code, `${namespace}:errors.${code}`, params);
}
