import { useId, useState, type ReactNode } from "react";

import { DEFAULT_PAGE_SIZE, pageOf } from "./dates";
import { Pager } from "./Pager";

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
  /** On a phone's card: shown first (1, the status) or second (2, the amount). */
  lead?: 1 | 2;
  /** On a phone's card: the whole width (a game's name). */
  wide?: boolean;
}

function cellClass<T>(column: Column<T>): string | undefined {
  const names = [column.numeric && "num", column.lead && `cell--lead${column.lead}`, column.wide && "cell--wide"].filter(Boolean);
  return names.length ? names.join(" ") : undefined;
}

interface PagedTableProps<T> {
  title?: string;
  rows: readonly T[];
  columns: readonly Column<T>[];
  sizes: readonly number[];
  rowKey: (row: T, index: number) => string;
  testId: string;
}

/** A history table, a page at a time; back to page 1 when its rows or the page size change. */
export function PagedTable<T>({ title, rows, columns, sizes, rowKey, testId }: PagedTableProps<T>) {
  const id = useId();
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(DEFAULT_PAGE_SIZE);
  const [pagedRows, setPagedRows] = useState(rows);
  if (pagedRows !== rows) {
    setPagedRows(rows);
    setPage(1);
  }
  return (
    <section className="history__table" aria-labelledby={title ? id : undefined}>
      {title && <h2 id={id}>{title}</h2>}
      <div className="table-scroll table-cards">
        <table data-testid={testId}>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.header} scope="col">
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {pageOf(rows, page, size).map((row, n) => (
              <tr key={rowKey(row, n)}>
                {columns.map((column) => (
                  <td key={column.header} className={cellClass(column)} data-label={column.header}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <Pager
        total={rows.length}
        page={page}
        size={size}
        sizes={sizes}
        onPage={setPage}
        onSize={(n) => {
          setSize(n);
          setPage(1);
        }}
        label={title ?? testId}
      />
    </section>
  );
}
