export const SCOPES = [
  'read:agent',
  'write:agent',
  'read:conversation',
  'write:conversation',
  'read:file',
  'write:file',
  'read:data_source',
  'write:data_source',
  'admin',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}
