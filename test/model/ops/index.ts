import type { Planner } from '../step.js';
import {
  addToCollection,
  createBlock,
  createCollection,
  deleteBlock,
  deleteCollection,
  forkBlock,
  updateBlock,
} from './blocks.js';
import { addBlocks, moveBlock, removeBlock, replaceBlock, setValues, upgradeAll, upgradeBlock } from './page-blocks.js';
import { createPage, deletePage, updatePage } from './pages.js';
import { publication, publish, publishUpdate } from './publication.js';
import { listObjects, readObject } from './reads.js';
import { createFolder, createSite, deleteFolder, deleteSite, setProvider, updateFolder, updateSite } from './sites.js';

export interface Provider {
  url: () => string;
  token: () => string;
}

/** Every operation, with how often a step draws it (creations often enough that there is something to act on). */
export function operations(provider: Provider): Record<string, { planner: Planner; weight: number }> {
  return {
    createSite: { planner: createSite, weight: 4 },
    updateSite: { planner: updateSite, weight: 1 },
    deleteSite: { planner: deleteSite, weight: 1 },
    setProvider: { planner: setProvider(provider.url, provider.token), weight: 2 },
    createFolder: { planner: createFolder, weight: 3 },
    updateFolder: { planner: updateFolder, weight: 1 },
    deleteFolder: { planner: deleteFolder, weight: 1 },
    createPage: { planner: createPage, weight: 10 },
    updatePage: { planner: updatePage, weight: 3 },
    deletePage: { planner: deletePage, weight: 1 },
    addBlocks: { planner: addBlocks, weight: 5 },
    moveBlock: { planner: moveBlock, weight: 2 },
    replaceBlock: { planner: replaceBlock, weight: 2 },
    removeBlock: { planner: removeBlock, weight: 2 },
    setValues: { planner: setValues, weight: 1 },
    upgradeBlock: { planner: upgradeBlock, weight: 2 },
    upgradeAll: { planner: upgradeAll, weight: 1 },
    createBlock: { planner: createBlock, weight: 5 },
    updateBlock: { planner: updateBlock, weight: 3 },
    deleteBlock: { planner: deleteBlock, weight: 1 },
    forkBlock: { planner: forkBlock, weight: 1 },
    createCollection: { planner: createCollection, weight: 2 },
    addToCollection: { planner: addToCollection, weight: 2 },
    deleteCollection: { planner: deleteCollection, weight: 1 },
    publish: { planner: publish, weight: 2 },
    publishUpdate: { planner: publishUpdate, weight: 1 },
    publication: { planner: publication, weight: 1 },
    readObject: { planner: readObject, weight: 5 },
    listObjects: { planner: listObjects, weight: 3 },
  };
}

/**
 * Operations that remove what others refer to, and those that refer to it: a
 * parallel step pairs one of each on the same target (the same choice numbers).
 */
export const REMOVALS = ['deleteSite', 'deleteFolder', 'deletePage', 'deleteBlock', 'deleteCollection', 'removeBlock'];
export const REFERRERS = [
  'createPage',
  'updatePage',
  'createFolder',
  'setProvider',
  'addBlocks',
  'moveBlock',
  'replaceBlock',
  'upgradeBlock',
  'upgradeAll',
  'addToCollection',
  'forkBlock',
  'publish',
  'readObject',
];
