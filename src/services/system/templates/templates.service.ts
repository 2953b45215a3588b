import type { BusinessAuditWriter } from '../../../platform/audit/business-audit.js';
import type { Principal } from '../../../platform/auth/principal.js';
import { inTransaction } from '../../../platform/db/transaction.js';
import { AppError, type FieldProblem } from '../../../platform/errors.js';
import { auditChange } from '../audit.js';
import type { SystemDb } from '../system.tables.js';
import { placeholdersOf, renderText } from './render.js';
import {
  TEMPLATE_LANGS,
  TEMPLATES,
  templateSpec,
  type TemplateLang,
  type TemplateSpec,
  type TemplateText,
} from './template-catalogue.js';
import type { TemplateView, UpdateTemplateInput } from './templates.schema.js';

interface Override extends TemplateText {
  updated_at: Date;
}

function viewOf(spec: TemplateSpec, lang: TemplateLang, row?: Override): TemplateView {
  const fallback = spec.defaults[lang];
  return {
    key: spec.key,
    lang,
    description: spec.description,
    placeholders: [...spec.placeholders],
    html: spec.html,
    title: row?.title ?? fallback.title,
    body: row?.body ?? fallback.body,
    default_title: fallback.title,
    default_body: fallback.body,
    overridden: row !== undefined,
    updated_at: row ? row.updated_at.toISOString() : null,
  };
}

function resolve(key: string, lang: string): [TemplateSpec, TemplateLang] {
  const spec = templateSpec(key);
  if (!spec || !(TEMPLATE_LANGS as readonly string[]).includes(lang)) {
    throw AppError.notFound('template');
  }
  return [spec, lang as TemplateLang];
}

/** Every placeholder the texts use must be the template's (40001 naming each field at fault). */
function checkPlaceholders(spec: TemplateSpec, input: UpdateTemplateInput): void {
  const problems: FieldProblem[] = [];
  for (const field of ['title', 'body'] as const) {
    const unknown = placeholdersOf(input[field]).filter((p) => !spec.placeholders.includes(p));
    if (unknown.length > 0) {
      problems.push({
        field,
        rule: 'format',
        message: `unknown placeholder ${[...new Set(unknown)].map((p) => `{{${p}}}`).join(', ')}; known: ${spec.placeholders.join(', ')}`,
      });
    }
  }
  if (problems.length > 0) throw AppError.validation(problems);
}

/** The texts of what the platform sends, per language: defaults in code, edits in the table. */
export class TemplatesService {
  constructor(private readonly o: { db: SystemDb; audit: BusinessAuditWriter }) {}

  async list(): Promise<TemplateView[]> {
    const rows = await this.o.db.selectFrom('sys_templates').selectAll().execute();
    const byId = new Map(rows.map((r) => [`${r.key}/${r.lang}`, r]));
    return TEMPLATES.flatMap((spec) =>
      TEMPLATE_LANGS.map((lang) => viewOf(spec, lang, byId.get(`${spec.key}/${lang}`))),
    );
  }

  async update(principal: Principal, key: string, lang: string, input: UpdateTemplateInput) {
    const [spec, language] = resolve(key, lang);
    checkPlaceholders(spec, input);
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, key, language);
      const row = await trx
        .insertInto('sys_templates')
        .values({ key, lang, title: input.title, body: input.body, updated_by: principal.userId })
        .onConflict((oc) =>
          oc.columns(['key', 'lang']).doUpdateSet({
            title: input.title,
            body: input.body,
            updated_by: principal.userId,
            updated_at: new Date(),
          }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      const after = viewOf(spec, language, row);
      await auditChange(this.o.audit, trx, principal, {
        action: 'update',
        targetType: 'template',
        targetId: `${key}/${lang}`,
        before: viewOf(spec, language, before),
        after,
        summary: `changed template ${key} (${lang})`,
      });
      return after;
    });
  }

  /** Back to the default text; a template without an edit is left alone (no audit row). */
  async restore(principal: Principal, key: string, lang: string): Promise<TemplateView> {
    const [spec, language] = resolve(key, lang);
    return inTransaction(this.o.db, async (trx) => {
      const before = await this.find(trx, key, language);
      if (!before) return viewOf(spec, language);
      await trx
        .deleteFrom('sys_templates')
        .where('key', '=', key)
        .where('lang', '=', lang)
        .execute();
      const after = viewOf(spec, language);
      await auditChange(this.o.audit, trx, principal, {
        action: 'delete',
        targetType: 'template',
        targetId: `${key}/${lang}`,
        before: viewOf(spec, language, before),
        after,
        summary: `restored the default template ${key} (${lang})`,
      });
      return after;
    });
  }

  private find(db: SystemDb, key: string, lang: string) {
    return db
      .selectFrom('sys_templates')
      .selectAll()
      .where('key', '=', key)
      .where('lang', '=', lang)
      .forUpdate()
      .executeTakeFirst();
  }
}

/**
 * The current text of `key` in `lang`, filled with `params`: the edit when there is one, else
 * the default. An unknown key is a programming error (thrown); an unknown language falls back
 * to en-US.
 */
export async function renderTemplate(
  db: SystemDb,
  key: string,
  lang: string,
  params: Readonly<Record<string, string | number>>,
): Promise<TemplateText> {
  const spec = templateSpec(key);
  if (!spec) throw new Error(`no template ${key}`);
  const language: TemplateLang = (TEMPLATE_LANGS as readonly string[]).includes(lang)
    ? (lang as TemplateLang)
    : 'en-US';
  const row = await db
    .selectFrom('sys_templates')
    .select(['title', 'body'])
    .where('key', '=', key)
    .where('lang', '=', language)
    .executeTakeFirst();
  const text = row ?? spec.defaults[language];
  return {
    title: renderText(text.title, params, { html: false }),
    body: renderText(text.body, params, { html: spec.html }),
  };
}
