import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { fieldError, forbidden, notFound, unprocessable } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { Layout, LayoutFields, LayoutsRepository, OwnedLayout } from './layouts.js';

export interface LayoutInput {
  name?: string;
  site_id?: number | null;
  tags?: number[];
  template?: string;
  css?: string;
  js?: string;
}

/** Page layouts: private to their owner, or global (made by administrators, forked by anyone). */
export class LayoutsService {
  constructor(
    private readonly deps: {
      layouts: LayoutsRepository;
      checkSite: (actor: Actor, siteId: number) => Promise<void>;
      clock: Clock;
    },
  ) {}

  async list(actor: Actor, page: PageRequest): Promise<Page<Layout>> {
    const { rows, total } = await this.deps.layouts.list(actor.userId, page);
    return pageOf(rows, total, page);
  }

  async get(actor: Actor, id: number): Promise<Layout> {
    const { owner_id: _owner, ...layout } = await this.visible(actor, id);
    return layout;
  }

  async create(
    actor: Actor,
    input: LayoutInput & { name: string },
    scope: 'global' | 'user' = 'user',
  ): Promise<Layout> {
    if (scope === 'global' && !actor.isAdmin) throw forbidden('Administrators only.');
    const fields = await this.fields(actor, input, { name: input.name, site_id: null, template: '', css: '', js: '' });
    await this.checkTags(input.tags);
    const id = await this.deps.layouts.create({
      ownerId: actor.userId,
      scope,
      fields,
      tags: input.tags ?? [],
      now: this.now(),
    });
    return this.get(actor, id);
  }

  async update(actor: Actor, id: number, input: LayoutInput): Promise<Layout> {
    const layout = await this.writable(actor, id);
    const { site_id, ...rest } = await this.fields(actor, input, layout);
    const fields = { ...rest, ...(input.site_id !== undefined && { site_id }) };
    await this.checkTags(input.tags);
    await this.deps.layouts.update({ id, fields, ...(input.tags && { tags: input.tags }), now: this.now() });
    return this.get(actor, id);
  }

  async delete(actor: Actor, id: number): Promise<void> {
    await this.writable(actor, id);
    await this.deps.layouts.delete(id);
  }

  async fork(actor: Actor, id: number, name?: string | null): Promise<Layout> {
    const source = await this.visible(actor, id);
    if (source.scope !== 'global')
      throw fieldError('id', `Layout ${id} is not global: only global layouts can be forked.`);
    const newId = await this.deps.layouts.create({
      ownerId: actor.userId,
      scope: 'user',
      fields: {
        name: name ?? `${source.name} (fork)`,
        site_id: null,
        template: source.template,
        css: source.css,
        js: source.js,
      },
      tags: source.tags,
      forkedFromId: id,
      now: this.now(),
    });
    return this.get(actor, newId);
  }

  private async fields(actor: Actor, input: LayoutInput, base: LayoutFields): Promise<LayoutFields> {
    if (input.site_id != null) await this.deps.checkSite(actor, input.site_id);
    return {
      name: input.name ?? base.name,
      site_id: input.site_id !== undefined ? input.site_id : base.site_id,
      template: input.template ?? base.template,
      css: input.css ?? base.css,
      js: input.js ?? base.js,
    };
  }

  private async checkTags(tags: number[] | undefined) {
    if (!tags?.length) return;
    const missing = await this.deps.layouts.missingTags(tags);
    if (missing.length) {
      throw unprocessable(
        'Some layout tags do not exist: see GET /layout-tags.',
        tags.flatMap((tag, i) =>
          missing.includes(tag) ? [{ path: `tags[${i}]`, message: `Layout tag ${tag} does not exist.` }] : [],
        ),
      );
    }
  }

  private async visible(actor: Actor, id: number): Promise<OwnedLayout> {
    const layout = await this.deps.layouts.find(id);
    if (!layout) throw notFound(`Layout ${id} not found.`);
    if (layout.scope === 'user' && layout.owner_id !== actor.userId)
      throw forbidden(`Layout ${id} belongs to another user.`);
    return layout;
  }

  private async writable(actor: Actor, id: number): Promise<OwnedLayout> {
    const layout = await this.visible(actor, id);
    if (layout.scope === 'global' ? !actor.isAdmin : layout.owner_id !== actor.userId)
      throw forbidden(`Layout ${id} is global: only administrators change it.`);
    return layout;
  }

  private now() {
    return this.deps.clock.now().toISOString();
  }
}
