/** A column of a table's header: its name, and `num` for a right-aligned number column. */
export type Column = string | readonly [string, 'num'];

/** A table's header row of static column names. */
export function HeadRow({ columns }: { columns: readonly Column[] }) {
  return (
    <tr>
      {columns.map((column, index) =>
        typeof column === 'string' ? (
          <th scope="col" key={index}>
            {column}
          </th>
        ) : (
          <th scope="col" class="num" key={index}>
            {column[0]}
          </th>
        ),
      )}
    </tr>
  );
}
