import { makeAutoObservable, runInAction, type ApiClient, type TypeRegistry } from '@werkbank/sdk/browser';
import { EXECUTION_PATH, typeName, type Execution, type Frame, type Workflow } from '../../common/switchboard-types';
import { datumEditorValue, datumFieldsFromEditor } from '@werkbank/sdk';
import { EXECUTION_POLL_MS, mayExecute } from './workflow-ids';

/** A plain copy of JSON data held by the store (observable proxies cannot be structured-cloned). */
const plain = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** spec 000 §2: the run panel's three stages. */
export type RunStage = 'input' | 'progress' | 'result';

/** One input frame of the workflow's switchboard and the values entered for it. */
export interface RunInput {
  frame: Pick<Frame, 'resource_uri' | 'name' | 'description' | 'content_type'>;
  /** How the execute call names the frame: its name, or its address when the name is empty or taken twice. */
  key: string;
  typeName: string;
  /** The datum fields of a new item of the frame's type. */
  template: Record<string, unknown>;
  /** One editor value per item (datumEditorValue). */
  values: unknown[];
}

/**
 * The state of one workflow run panel (spec 000 §2, §4): input data while initialized (Run
 * offered), progress while started (Stop offered), result on success or failure (Restart offered).
 * Polls the execution with a chain of timers while it runs; `dispose()` stops the chain and drops
 * replies still under way. Failed calls leave their message in `error`.
 */
export class WorkflowRunStore {
  workflow: Workflow | undefined = undefined;
  inputs: RunInput[] = [];
  execution: Execution | undefined = undefined;
  error: string | undefined = undefined;
  loading = true;
  starting = false;
  stopping = false;
  private timer: ReturnType<typeof setTimeout> | undefined = undefined;
  /** Counts restarts and the disposal: a reply of an older generation is dropped. */
  private generation = 0;

  constructor(
    private readonly api: ApiClient,
    private readonly types: TypeRegistry,
    readonly address: string,
    private readonly pollMs = EXECUTION_POLL_MS,
  ) {
    makeAutoObservable<WorkflowRunStore, 'api' | 'types' | 'timer' | 'generation' | 'pollMs'>(this, {
      api: false,
      types: false,
      timer: false,
      generation: false,
      pollMs: false,
    });
  }

  get stage(): RunStage {
    if (!this.execution) return 'input';
    return this.execution.stage === 'progress' ? 'progress' : 'result';
  }

  get succeeded(): boolean {
    return this.execution?.status === 'success';
  }

  /** Run is offered with a switchboard chosen, to who may execute the workflow. */
  get runnable(): boolean {
    return !!this.workflow?.switchboard && mayExecute(this.workflow);
  }

  /** What the server says about a failure: the execution's message, else the failed runs' exceptions. */
  get failureDetails(): string[] {
    const e = this.execution;
    if (!e || e.status === 'success') return [];
    if (e.message) return [e.message];
    return [...new Set(e.runs.filter((r) => r.status === 'failure' && r.exception).map((r) => r.exception!))];
  }

  /** Loads the workflow and the templates of its input frames' types; one empty item per frame. */
  async load(): Promise<void> {
    const generation = this.generation;
    try {
      const workflow = await this.api.get<Workflow>(this.address);
      const frames = workflow.input_frames ?? [];
      const templates = await Promise.all(frames.map((f) => this.templateOf(typeName(f.content_type))));
      if (generation !== this.generation) return;
      runInAction(() => {
        this.workflow = workflow;
        this.inputs = frames.map((frame, i) => ({
          frame,
          key: frame.name && frames.filter((f) => f.name === frame.name).length === 1 ? frame.name : frame.resource_uri,
          typeName: typeName(frame.content_type),
          template: templates[i],
          values: [datumEditorValue(templates[i], plain(templates[i]))],
        }));
      });
    } catch (e) {
      runInAction(() => (this.error = (e as Error).message));
    } finally {
      runInAction(() => (this.loading = false));
    }
  }

  setValue(input: number, item: number, value: unknown): void {
    this.change(input, (values) => values.map((v, j) => (j === item ? value : v)));
  }

  addValue(input: number): void {
    this.change(input, (values) => [
      ...values,
      datumEditorValue(this.inputs[input].template, plain(this.inputs[input].template)),
    ]);
  }

  removeValue(input: number, item: number): void {
    this.change(input, (values) => values.filter((_, j) => j !== item));
  }

  /** POST {workflow}execute/ with every input's items; the reply is the execution to follow. */
  async run(): Promise<void> {
    if (!this.runnable || this.starting || this.stage !== 'input') return;
    const generation = this.generation;
    this.starting = true;
    this.error = undefined;
    const inputs = plain(
      Object.fromEntries(
        this.inputs.map((i) => [i.key, i.values.map((v) => datumFieldsFromEditor(i.template, plain(i.template), v))]),
      ),
    );
    try {
      const execution = await this.api.post<Execution>(`${this.address}execute/`, { inputs });
      if (generation === this.generation) this.follow(execution);
    } catch (e) {
      if (generation === this.generation) runInAction(() => (this.error = (e as Error).message));
    } finally {
      runInAction(() => (this.starting = false));
    }
  }

  /** POST {switchboard}abort/: waiting nodes are cancelled, running ones fail; the execution ends as a failure. */
  async stop(): Promise<void> {
    const sb = this.workflow?.switchboard;
    if (!sb || this.stage !== 'progress' || this.stopping) return;
    const generation = this.generation;
    this.stopping = true;
    this.error = undefined;
    try {
      const execution = await this.api.post<Execution>(`${sb}abort/`, {});
      if (generation === this.generation && execution.id === this.execution?.id) this.follow(execution);
    } catch (e) {
      // 409 not_running: it ended meanwhile; the next poll brings the result.
      const status = (e as { status?: number }).status;
      if (generation === this.generation && status !== 409) runInAction(() => (this.error = (e as Error).message));
    } finally {
      runInAction(() => (this.stopping = false));
    }
  }

  /** Back to the input stage, keeping the values entered. */
  restart(): void {
    this.generation++;
    this.clearTimer();
    this.execution = undefined;
    this.error = undefined;
  }

  /** Stops polling; replies still under way are dropped. Called when the panel closes. */
  dispose(): void {
    this.generation++;
    this.clearTimer();
  }

  private change(input: number, next: (values: unknown[]) => unknown[]): void {
    this.inputs = this.inputs.map((x, i) => (i === input ? { ...x, values: next(x.values) } : x));
  }

  private follow(execution: Execution): void {
    this.execution = execution;
    this.clearTimer();
    if (this.stage === 'progress') this.schedule(execution.id);
  }

  private schedule(id: number): void {
    const generation = this.generation;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.api.get<Execution>(`${EXECUTION_PATH}${id}/`).then(
        (execution) => {
          if (generation !== this.generation) return;
          runInAction(() => (this.error = undefined));
          this.follow(execution);
        },
        (e: Error & { status?: number }) => {
          if (generation !== this.generation) return;
          runInAction(() => (this.error = e.message));
          // A refusal stays a refusal; a lost connection or a server error may pass: try again.
          if (!e.status || e.status >= 500) this.schedule(id);
        },
      );
    }, this.pollMs);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async templateOf(name: string): Promise<Record<string, unknown>> {
    // Types the browser knows (the core types) need no call; others come from the server's type list.
    if (this.types.type(name)) return this.types.templateOf(name);
    const type = await this.api.get<{ template?: Record<string, unknown> }>(`/api/v1/type/${encodeURIComponent(name)}/`);
    return type.template ?? {};
  }
}
