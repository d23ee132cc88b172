import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { forbidden } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import {
  layoutUnavailable,
  siteNotFound,
  type OwnedSite,
  type Site,
  type SiteInput,
  type SitesRepository,
} from './sites.js';

const strip = ({ user_id: _owner, ...site }: OwnedSite): Site => site;

export class SitesService {
  constructor(
    private readonly deps: {
      sites: SitesRepository;
      clock: Clock;
      checkLayout?: (actor: Actor, layoutId: number) => Promise<void>;
    },
  ) {}

  async list(actor: Actor, page: PageRequest): Promise<Page<Site>> {
    const { rows, total } = await this.deps.sites.list(actor.userId, page);
    return pageOf(rows, total, page);
  }

  /** A site of the actor: 404 when it does not exist, 403 when it is someone else's. */
  async get(actor: Actor, id: number): Promise<Site> {
    return strip(await this.owned(actor, id));
  }

  async create(actor: Actor, input: { name: string; domain?: string | null }): Promise<Site> {
    return this.deps.sites.create({
      userId: actor.userId,
      name: input.name,
      domain: input.domain ?? null,
      now: this.deps.clock.now().toISOString(),
    });
  }

  async update(actor: Actor, id: number, input: SiteInput): Promise<Site> {
    await this.owned(actor, id);
    if (input.layout_id != null && this.deps.checkLayout) {
      const layoutId = input.layout_id;
      await this.deps.checkLayout(actor, layoutId).catch((error: unknown) => {
        throw layoutUnavailable(
          layoutId,
          error instanceof Error ? error.message : `Layout ${layoutId} is not available.`,
        );
      });
    }
    return this.deps.sites.update(id, { ...input, updated_at: this.deps.clock.now().toISOString() });
  }

  /** The site's pages stay, without a site, until they are given another one. */
  async delete(actor: Actor, id: number): Promise<void> {
    await this.owned(actor, id);
    await this.deps.sites.delete(id);
  }

  private async owned(actor: Actor, id: number): Promise<OwnedSite> {
    const site = await this.deps.sites.find(id);
    if (!site) throw siteNotFound(id);
    if (site.user_id !== actor.userId) throw forbidden(`Site ${id} belongs to another user.`);
    return site;
  }
}
