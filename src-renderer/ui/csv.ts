/** CSV export of a blotter (RFC 4180: CRLF lines, quotes doubled, a field quoted when it needs it). */

export interface CsvColumn<Row> {
  header: string;
  value: (row: Row) => string;
}

function field(text: string): string {
  // A leading = + - @ would run as a formula when the file is opened in a spreadsheet; a quote mark defuses it.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function toCsv<Row>(columns: readonly CsvColumn<Row>[], rows: readonly Row[]): string {
  const lines = [columns.map((c) => field(c.header)).join(',')];
  for (const row of rows) lines.push(columns.map((c) => field(c.value(row))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

/** Offers the text as a file download (a Blob URL: nothing leaves the machine). */
export function downloadCsv(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
