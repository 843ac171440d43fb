export interface GroupRecord {
  resource_uri: string;
  name: string;
  group_permissions?: string[];
}

/** The permissions the chosen groups grant their members (spec 002 §6: members inherit them). */
export function groupGrantedPermissions(groups: GroupRecord[], chosen: string[]): Set<string> {
  return new Set(groups.filter((g) => chosen.includes(g.resource_uri)).flatMap((g) => g.group_permissions ?? []));
}
