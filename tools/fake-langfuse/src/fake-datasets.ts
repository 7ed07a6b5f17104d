import { randomUUID } from 'node:crypto';

/** A dataset as the fake keeps it (Langfuse's Dataset, without the schemas). */
export interface FakeDataset {
  id: string;
  name: string;
  description: string | null;
  metadata: unknown;
  createdAt: string;
  updatedAt: string;
}

export interface FakeDatasetItem {
  id: string;
  datasetId: string;
  datasetName: string;
  status: 'ACTIVE' | 'ARCHIVED';
  input: unknown;
  expectedOutput: unknown;
  metadata: unknown;
  sourceTraceId: string | null;
  sourceObservationId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface FakeDatasetRunItem {
  id: string;
  datasetRunId: string;
  datasetRunName: string;
  datasetItemId: string;
  traceId: string;
  observationId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface FakeDatasetRun {
  id: string;
  name: string;
  description: string | null;
  metadata: unknown;
  datasetId: string;
  datasetName: string;
  createdAt: string;
  updatedAt: string;
  datasetRunItems: FakeDatasetRunItem[];
}

type Answer = { status: number; body: unknown };
type Body = Record<string, unknown>;

const notFound = (what: string): Answer => ({ status: 404, body: { message: `${what} not found` } });
const badRequest = (message: string): Answer => ({ status: 400, body: { message } });

/**
 * Datasets, dataset items and dataset runs as Langfuse's public API keeps them: a dataset is
 * created or updated by name; an item is upserted by its id, which is unique in the project (an id
 * of another dataset is refused); a run item's POST creates its run by name, needs an active item
 * and a trace id, and always adds a run item (Langfuse gives them fresh ids: posting the same link
 * twice links it twice).
 */
export class FakeDatasets {
  private readonly datasets = new Map<string, FakeDataset>();
  private readonly items = new Map<string, FakeDatasetItem>();
  private readonly runs = new Map<string, Omit<FakeDatasetRun, 'datasetRunItems'>>();
  private readonly runItems: FakeDatasetRunItem[] = [];

  constructor(private readonly now: () => string = () => new Date().toISOString()) {}

  createDataset(body: Body): Answer {
    if (typeof body['name'] !== 'string' || body['name'] === '') return badRequest('name is required');
    const existing = this.datasets.get(body['name']);
    const at = this.now();
    const dataset: FakeDataset = {
      id: existing?.id ?? `ds-${randomUUID()}`,
      name: body['name'],
      description: typeof body['description'] === 'string' ? body['description'] : (existing?.description ?? null),
      metadata: body['metadata'] ?? existing?.metadata ?? null,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    this.datasets.set(dataset.name, dataset);
    return { status: 200, body: datasetView(dataset) };
  }

  getDataset(name: string): Answer {
    const dataset = this.datasets.get(name);
    return dataset ? { status: 200, body: datasetView(dataset) } : notFound('Dataset');
  }

  listDatasets(page: number, limit: number): Answer {
    return paged([...this.datasets.values()].map(datasetView), page, limit);
  }

  upsertItem(body: Body): Answer {
    const dataset = typeof body['datasetName'] === 'string' ? this.datasets.get(body['datasetName']) : undefined;
    if (!dataset) return notFound('Dataset');
    const id = typeof body['id'] === 'string' && body['id'] !== '' ? body['id'] : randomUUID();
    if (id.length > 255) return badRequest('id must be at most 255 characters');
    const existing = this.items.get(id);
    if (existing && existing.datasetId !== dataset.id) return badRequest(`Dataset item ${id} already exists for a different dataset than ${dataset.name}`);
    const status = body['status'] === 'ARCHIVED' ? 'ARCHIVED' : body['status'] === undefined || body['status'] === 'ACTIVE' ? 'ACTIVE' : undefined;
    if (status === undefined) return badRequest('status must be ACTIVE or ARCHIVED');
    const at = this.now();
    const item: FakeDatasetItem = {
      id,
      datasetId: dataset.id,
      datasetName: dataset.name,
      status,
      input: body['input'] ?? null,
      expectedOutput: body['expectedOutput'] ?? null,
      metadata: body['metadata'] ?? null,
      sourceTraceId: typeof body['sourceTraceId'] === 'string' ? body['sourceTraceId'] : null,
      sourceObservationId: typeof body['sourceObservationId'] === 'string' ? body['sourceObservationId'] : null,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    this.items.set(id, item);
    return { status: 200, body: itemView(item) };
  }

  getItem(id: string): Answer {
    const item = this.items.get(id);
    return item ? { status: 200, body: itemView(item) } : notFound('Dataset item');
  }

  listItems(datasetName: string | undefined, page: number, limit: number): Answer {
    if (datasetName !== undefined && !this.datasets.has(datasetName)) return notFound('Dataset');
    return paged([...this.items.values()].filter((item) => datasetName === undefined || item.datasetName === datasetName).map(itemView), page, limit);
  }

  createRunItem(body: Body): Answer {
    if (typeof body['runName'] !== 'string' || body['runName'] === '') return badRequest('runName is required');
    const item = typeof body['datasetItemId'] === 'string' ? this.items.get(body['datasetItemId']) : undefined;
    if (!item || item.status !== 'ACTIVE') return notFound('Dataset item');
    if (typeof body['traceId'] !== 'string' || body['traceId'] === '') return notFound('Trace');
    const key = `${item.datasetId}\u0000${body['runName']}`;
    const at = typeof body['createdAt'] === 'string' ? body['createdAt'] : this.now();
    const existing = this.runs.get(key);
    const run = {
      id: existing?.id ?? `run-${randomUUID()}`,
      name: body['runName'],
      description: typeof body['runDescription'] === 'string' ? body['runDescription'] : (existing?.description ?? null),
      metadata: body['metadata'] ?? existing?.metadata ?? null,
      datasetId: item.datasetId,
      datasetName: item.datasetName,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    this.runs.set(key, run);
    const runItem: FakeDatasetRunItem = {
      id: randomUUID(),
      datasetRunId: run.id,
      datasetRunName: run.name,
      datasetItemId: item.id,
      traceId: body['traceId'],
      observationId: typeof body['observationId'] === 'string' ? body['observationId'] : null,
      createdAt: at,
      updatedAt: at,
    };
    this.runItems.push(runItem);
    return { status: 200, body: runItem };
  }

  getRun(datasetName: string, runName: string): Answer {
    const dataset = this.datasets.get(datasetName);
    const run = dataset ? this.runs.get(`${dataset.id}\u0000${runName}`) : undefined;
    return run ? { status: 200, body: { ...run, datasetRunItems: this.runItems.filter((item) => item.datasetRunId === run.id) } } : notFound('Dataset run');
  }

  listRuns(datasetName: string, page: number, limit: number): Answer {
    const dataset = this.datasets.get(datasetName);
    if (!dataset) return notFound('Dataset');
    return paged([...this.runs.values()].filter((run) => run.datasetId === dataset.id), page, limit);
  }

  listRunItems(datasetId: string | undefined, runName: string | undefined, page: number, limit: number): Answer {
    if (datasetId === undefined || runName === undefined) return badRequest('datasetId and runName are required');
    const run = this.runs.get(`${datasetId}\u0000${runName}`);
    if (!run) return notFound('Dataset run');
    return paged(this.runItems.filter((item) => item.datasetRunId === run.id), page, limit);
  }

  /** Everything, for tests: datasets with their items, and runs with their run items. */
  snapshot(): { datasets: FakeDataset[]; items: FakeDatasetItem[]; runs: FakeDatasetRun[] } {
    return {
      datasets: [...this.datasets.values()],
      items: [...this.items.values()],
      runs: [...this.runs.values()].map((run) => ({ ...run, datasetRunItems: this.runItems.filter((item) => item.datasetRunId === run.id) })),
    };
  }
}

function datasetView(dataset: FakeDataset) {
  return { ...dataset, inputSchema: null, expectedOutputSchema: null, projectId: 'project-ratiba' };
}

function itemView(item: FakeDatasetItem) {
  return { ...item, mediaReferences: [] };
}

function paged(all: unknown[], page: number, limit: number): Answer {
  return { status: 200, body: { data: all.slice((page - 1) * limit, page * limit), meta: { page, limit, totalItems: all.length, totalPages: Math.ceil(all.length / limit) } } };
}
