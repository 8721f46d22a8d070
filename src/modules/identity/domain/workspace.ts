export interface Workspace {
  id: number;
  sId: string;
  name: string;
  createdAt: Date;
}

export const WORKSPACE_NAME_MAX = 100;
