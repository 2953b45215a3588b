/**
 * What the code generator is asked for: one service holding one tenant-scoped entity, its table
 * described column by column. Names are checked by the request schema (codegen.schema.ts); this
 * file derives every identifier the templates use from them.
 */

export const COLUMN_TYPES = [
  'string',
  'text',
  'integer',
  'number',
  'boolean',
  'date',
  'timestamp',
] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** Types a column may be searched by: strings by the keyword, the others by an exact filter. */
export const SEARCHABLE_TYPES: readonly ColumnType[] = [
  'string',
  'text',
  'integer',
  'boolean',
  'date',
];

export interface ColumnSpec {
  /** snake_case, the column's and the JSON field's name. */
  name: string;
  type: ColumnType;
  required: boolean;
  searchable: boolean;
  /** `string` only: the most characters (default 255). */
  max_length?: number | undefined;
  /** A few words for the generated docs and descriptions. */
  description?: string | undefined;
}

export interface ModuleSpec {
  /** The service's folder and module name: one lower-case word (`crm`). */
  service: string;
  /** The entity, singular snake_case (`customer`, `purchase_order`). */
  entity: string;
  /** Its plural (default: the singular and an `s`). */
  plural?: string | undefined;
  columns: ColumnSpec[];
}

/** Where the generated module goes in the project: set by the project it is written into. */
export interface ModulePlacement {
  /** The migration's number (the highest in `migrations/` plus one). */
  migration: number;
  /** The service's default port (the highest declared plus one). */
  port: number;
}

const pascal = (snake: string) =>
  snake
    .split('_')
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');

/** Every identifier the templates use, derived once. */
export function namesOf(spec: ModuleSpec) {
  const plural = spec.plural ?? `${spec.entity}s`;
  const Entity = pascal(spec.entity);
  const Plural = pascal(plural);
  const kebab = (snake: string) => snake.replaceAll('_', '-');
  return {
    service: spec.service,
    Service: pascal(spec.service),
    SERVICE: spec.service.toUpperCase(),
    entity: spec.entity,
    Entity,
    entityCamel: Entity.charAt(0).toLowerCase() + Entity.slice(1),
    /** Words for people: `purchase order`. */
    words: spec.entity.replaceAll('_', ' '),
    pluralWords: plural.replaceAll('_', ' '),
    plural,
    Plural,
    pluralCamel: Plural.charAt(0).toLowerCase() + Plural.slice(1),
    table: `${spec.service}_${plural}`,
    path: `/api/v1/${spec.service}/${kebab(plural)}`,
    permission: `${spec.service}:${kebab(spec.entity)}`,
    /** File names inside the service folder. */
    file: kebab(plural),
  };
}
export type Names = ReturnType<typeof namesOf>;
