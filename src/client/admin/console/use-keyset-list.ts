import { useCallback, useEffect, useState } from 'react';
import type { ApiResult } from '../../lib/http.ts';
import { useApiData } from './console-context.tsx';

/** One page of a keyset-paged list: its rows, and the cursor of the next page (null at the end). */
export interface KeysetPage<T> {
  rows: T[];
  nextCursor: string | null;
}

/**
 * A console list read a page at a time ("Load more" asks for the rows after the last one shown),
 * shared by the audit log and the subscribers. `fetchPage` asks the server; `toPage` picks the rows
 * and cursor out of the reply, and may note anything else the reply carries (e.g. the audit log's
 * operators). The first page is read with `initialFilter` when the view opens.
 */
export function useKeysetList<F, R, T>(
  fetchPage: (filter: F, after: string | null) => Promise<ApiResult<R>>,
  toPage: (reply: R) => KeysetPage<T>,
  initialFilter: F,
) {
  const read = useApiData();
  const [rows, setRows] = useState<T[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const show = useCallback(
    (result: ApiResult<R>, after: string | null) => {
      setBusy(false);
      const { data, error: failed } = read(result);
      setError(failed);
      if (!data) return;
      const page = toPage(data);
      setRows((old) => (after && old ? [...old, ...page.rows] : page.rows));
      setCursor(page.nextCursor);
    },
    // toPage is a pure function of the reply; the views pass a stable one.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [read],
  );
  const load = (filter: F, after: string | null) => {
    setBusy(true);
    void fetchPage(filter, after).then((r) => show(r, after));
  };

  useEffect(() => {
    void fetchPage(initialFilter, null).then((r) => show(r, null));
    // Once, when the view opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [show]);

  return { rows, setRows, cursor, error, setError, busy, setBusy, load };
}

/** A text field of a submitted form ('' when absent or a file). */
export function formText(data: FormData, key: string): string {
  const v = data.get(key);
  return typeof v === 'string' ? v : '';
}
