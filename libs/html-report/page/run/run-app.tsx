import { useEffect, useMemo, useState } from 'preact/hooks';
import type { RunPageData } from '../../src/page-data.js';
import { plural } from '../format.js';
import { href, useRoute } from '../router.js';
import { filterCases, NO_FILTERS, type Filters, type Sort } from './case-filters.js';
import { CaseList } from './case-list.js';
import { CaseView } from './case-view.js';
import { ComparisonOverview, ComparisonScenario } from './comparison.js';
import { RunHeaderView } from './run-header.js';

/** The run page: the header, then the case list, one case, or the comparison (by the URL fragment). */
export function RunApp({ data }: { data: RunPageData }) {
  const route = useRoute();
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [sort, setSort] = useState<Sort>({ key: 'triage', direction: 1 });
  const shown = useMemo(() => filterCases(data.cases, filters, sort), [data.cases, filters, sort]);
  const byId = useMemo(() => new Map(data.cases.map((entry) => [entry.id, entry])), [data.cases]);
  const [lastOpened, setLastOpened] = useState<string | undefined>(undefined);
  const comparison = data.header.comparison;

  const [view, id] = route;
  useEffect(() => {
    if (view === 'case' && id !== undefined) setLastOpened(id);
  }, [view, id]);

  let body;
  if (view === 'case' && id !== undefined) {
    const index = shown.findIndex((entry) => entry.id === id);
    const neighbours = index < 0 ? {} : { previous: shown[index - 1]?.id, next: shown[index + 1]?.id };
    body = <CaseView summary={byId.get(id)} neighbours={neighbours} />;
  } else if (view === 'compare' && comparison) {
    body =
      id === undefined ? (
        <ComparisonOverview comparison={comparison} cases={data.cases} />
      ) : (
        <ComparisonScenario scenario={id} agents={comparison.agents} cases={data.cases} />
      );
  } else {
    body = <CaseList all={data.cases} shown={shown} filters={filters} onFilters={setFilters} sort={sort} onSort={setSort} lastOpened={lastOpened} />;
  }
  const onList = view !== 'case' && view !== 'compare';
  return (
    <>
      <RunHeaderView header={data.header} />
      <nav class="tabs" aria-label="Views">
        <a href={href()} aria-current={onList ? 'page' : undefined}>
          Cases ({plural(data.cases.length, 'case')})
        </a>
        {comparison ? (
          <a href={href('compare')} aria-current={view === 'compare' ? 'page' : undefined}>
            Comparison ({comparison.agents.join(' vs ')})
          </a>
        ) : null}
      </nav>
      <main>{body}</main>
      <footer class="page-footer">
        Made by Parley from report.json: masked and withheld as the report is. Keys: / filter · ↑↓ or j k move · Enter open · Esc back · [ ] previous/next case · n N
        marked messages.
      </footer>
    </>
  );
}
