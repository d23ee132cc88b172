import type { Actor } from '../../shared/actor.js';
import type { Clock } from '../../shared/clock.js';
import { AppError, forbidden, unprocessable } from '../../shared/errors.js';
import { pageOf, type Page, type PageRequest } from '../../shared/pagination.js';
import type { SitesService } from '../sites/sites.service.js';
import { folderNotFound, parentNotInSite, type Folder, type FoldersRepository, type OwnedFolder } from './folders.js';

/** A tree of folders inside each site; a parent is always in the same site, and the tree has no cycle. */
export class FoldersService {
  constructor(private readonly deps: { folders: FoldersRepository; sites: SitesService; clock: Clock }) {}

  async list(actor: Actor, query: PageRequest & { siteId?: number }): Promise<Page<Folder>> {
    if (query.siteId !== undefined) await this.site(actor, query.siteId);
    const { rows, total } = await this.deps.folders.list({ ...query, ownerId: actor.userId });
    return pageOf(rows, total, query);
  }

  async get(actor: Actor, id: number): Promise<Folder> {
    const { owner_id: _owner, ...folder } = await this.owned(actor, id);
    return folder;
  }

  async create(actor: Actor, input: { site_id: number; parent_id?: number | null; name: string }): Promise<Folder> {
    await this.site(actor, input.site_id);
    if (input.parent_id != null) await this.checkParent(actor, input.parent_id, input.site_id);
    return this.deps.folders.create({
      ownerId: actor.userId,
      siteId: input.site_id,
      parentId: input.parent_id ?? null,
      name: input.name,
      now: this.deps.clock.now().toISOString(),
    });
  }

  async update(actor: Actor, id: number, input: { name?: string; parent_id?: number | null }): Promise<Folder> {
    const folder = await this.owned(actor, id);
    if (input.parent_id != null) {
      await this.checkParent(actor, input.parent_id, folder.site_id);
      if ((await this.deps.folders.ancestors(input.parent_id)).includes(id)) {
        throw unprocessable('This move would make a cycle in the folder tree.', [
          { path: 'parent_id', message: `Folder ${input.parent_id} is inside folder ${id}.` },
        ]);
      }
    }
    return this.deps.folders.update(id, input);
  }

  /** Subfolders go with the folder; its pages stay, at the root of the site. */
  async delete(actor: Actor, id: number): Promise<void> {
    await this.owned(actor, id);
    await this.deps.folders.delete(id);
  }

  private async checkParent(actor: Actor, parentId: number, siteId: number) {
    const parent = await this.deps.folders.find(parentId);
    if (!parent || parent.owner_id !== actor.userId || parent.site_id !== siteId)
      throw parentNotInSite(parentId, siteId);
  }

  private async site(actor: Actor, siteId: number) {
    try {
      await this.deps.sites.get(actor, siteId);
    } catch (error) {
      if (error instanceof AppError)
        throw new AppError(error.kind, error.message, { errors: [{ path: 'site_id', message: error.message }] });
      throw error;
    }
  }

  private async owned(actor: Actor, id: number): Promise<OwnedFolder> {
    const folder = await this.deps.folders.find(id);
    if (!folder) throw folderNotFound(id);
    if (folder.owner_id !== actor.userId) throw forbidden(`Folder ${id} belongs to another user.`);
    return folder;
  }
}
