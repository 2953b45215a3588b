/**
 * The role editor's view of the permission catalogue: codes grouped by module (`system:user`,
 * `bpm:definition`), filtered by what the person types, and for each code whether the role
 * grants it, and whether the editor may change that (a grant never exceeds the grantor: only a
 * code the editor holds may be given or taken).
 */
import { grants } from '../../../auth/AuthContext';

/** One entry of `GET /api/v1/permissions`. */
export interface CatalogueEntry {
  code: string;
  description: string;
  platform_only: boolean;
}

export interface PermissionGroup<P extends CatalogueEntry = CatalogueEntry> {
  /** The first two segments of its codes (`system:user`), or the code itself when shorter. */
  module: string;
  entries: P[];
}

/** `system:user:list` → `system:user`. */
export function moduleOf(code: string): string {
  return code.split(':').slice(0, 2).join(':');
}

/**
 * The catalogue by module, modules and codes in alphabetical order; with a search, only codes
 * whose code, description or module contains it (any letter case).
 */
export function groupPermissions<P extends CatalogueEntry>(
  catalogue: readonly P[],
  search = '',
): PermissionGroup<P>[] {
  const needle = search.trim().toLowerCase();
  const groups = new Map<string, P[]>();
  for (const entry of catalogue) {
    const hay = `${entry.code} ${entry.description}`.toLowerCase();
    if (needle && !hay.includes(needle)) continue;
    const module = moduleOf(entry.code);
    groups.set(module, [...(groups.get(module) ?? []), entry]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([module, entries]) => ({
      module,
      entries: [...entries].sort((a, b) => a.code.localeCompare(b.code)),
    }));
}

/** A code as the editor shows it for a role. */
export interface CodeState {
  /** The role grants it, by the code itself or by a wildcard. */
  checked: boolean;
  /** The wildcard of the role that grants it (`*`, `system:user:*`), when not the code itself. */
  via: string | null;
  /** Whether the editor may tick or untick it. */
  editable: boolean;
}

/**
 * Whether `value` (the role's codes) grants `code`, and whether the editor, holding `held`,
 * may change that: only codes the editor holds, and not one a wildcard grants (the wildcard is
 * removed instead).
 */
export function codeState(
  value: readonly string[],
  code: string,
  held: readonly string[],
): CodeState {
  const direct = value.includes(code);
  const via = direct ? null : (value.find((p) => p !== code && grants([p], code)) ?? null);
  return { checked: direct || via !== null, via, editable: via === null && grants(held, code) };
}

/** The role's codes with `code` added or taken out (each code once, in order). */
export function toggle(value: readonly string[], code: string, on: boolean): string[] {
  const rest = value.filter((p) => p !== code);
  return on ? [...rest, code] : rest;
}

/** The role's wildcards (`*`, `prefix:*`): shown apart, as each grants many codes. */
export function wildcardsOf(value: readonly string[]): string[] {
  return value.filter((p) => p === '*' || p.endsWith(':*'));
}
