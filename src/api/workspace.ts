import Type from 'typebox';
import type { WorkspaceView } from '../domain/workspaces.js';
import { Timestamp } from './common.js';

export const WorkspaceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  type: Type.String(),
  createdAt: Timestamp,
  expiresAt: Type.Union([Timestamp, Type.Null()]),
  expired: Type.Boolean(),
  quota: Type.Object({
    page: Type.Object({ max: Type.Integer(), used: Type.Integer(), maxPerDocument: Type.Integer() }),
    user: Type.Object({ max: Type.Integer(), used: Type.Integer() }),
  }),
});

export function toWorkspaceJson(w: WorkspaceView) {
  return {
    id: w.id,
    name: w.name,
    type: w.type,
    createdAt: new Date(w.createdAt).toISOString(),
    expiresAt: w.expiresAt === null ? null : new Date(w.expiresAt).toISOString(),
    expired: w.expired,
    quota: w.quota,
  };
}
