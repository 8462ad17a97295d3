// The trader's fills, newest first, with the fee and whether the order made or took liquidity.
import { useState } from 'react';
import type { Fill } from '../../../src-shared/ipc/contract';
import { useDesk } from '../../stores/desk-store';
import { Panel } from '../../ui/Panel';
import { ReadFailed } from '../../ui/ReadFailed';
import { Side } from '../../ui/Side';
import { VirtualTable, type Column } from '../../ui/VirtualTable';
import { downloadCsv, toCsv, type CsvColumn } from '../../ui/csv';
import { formatDecimal, formatNanosIso, formatNanosStamp } from '../../ui/decimal-text';
import { fillSoundOn, setFillSound } from '../../stores/fill-alerts';

export const FILL_COLUMNS: Column<Fill>[] = [
  { key: 'time', header: 'Time', value: (f) => f.time, render: (f) => formatNanosStamp(f.time), kind: 'decimal' },
  { key: 'product', header: 'Product', value: (f) => f.productId },
  { key: 'side', header: 'Side', value: (f) => f.side, render: (f) => <Side side={f.side} /> },
  { key: 'price', header: 'Price', value: (f) => f.price, render: (f) => formatDecimal(f.price), kind: 'decimal', align: 'right' },
  { key: 'size', header: 'Size', value: (f) => f.size, render: (f) => formatDecimal(f.size), kind: 'decimal', align: 'right' },
  // A fill's fee is in the asset it received: by asset, then amount, so 5 VND never sorts beside 5 BTC.
  { key: 'fee', header: 'Fee', value: (f) => f.feeAmount, group: (f) => f.feeAsset, render: (f) => `${formatDecimal(f.feeAmount)} ${f.feeAsset}`, kind: 'decimal', align: 'right' },
  { key: 'liquidity', header: 'Liquidity', value: (f) => f.liquidity },
  { key: 'order', header: 'Order', value: (f) => f.clientOrderId || f.orderId },
];

const CSV: CsvColumn<Fill>[] = [
  { header: 'trade_id', value: (f) => f.tradeId },
  { header: 'order_id', value: (f) => f.orderId },
  { header: 'client_order_id', value: (f) => f.clientOrderId },
  { header: 'time', value: (f) => formatNanosIso(f.time) },
  { header: 'product_id', value: (f) => f.productId },
  { header: 'side', value: (f) => f.side },
  { header: 'price', value: (f) => f.price },
  { header: 'size', value: (f) => f.size },
  { header: 'liquidity', value: (f) => f.liquidity },
  { header: 'fee_asset', value: (f) => f.feeAsset },
  { header: 'fee_amount', value: (f) => f.feeAmount },
];

export function FillsPanel(props: { height: number }): React.JSX.Element {
  const fills = useDesk((s) => s.fills);
  const problem = useDesk((s) => s.fillsProblem);
  const [shown, setShown] = useState<readonly Fill[]>([]);
  const [sound, setSound] = useState(fillSoundOn);
  const tools = (
    <>
      <label>
        <input type="checkbox" checked={sound} onChange={(e) => (setFillSound(e.target.checked), setSound(e.target.checked))} /> Sound on fills
      </label>
      <button type="button" onClick={() => downloadCsv('fills.csv', toCsv(CSV, shown))}>Export CSV</button>
    </>
  );
  return (
    <Panel title="Fills" tools={tools} account>
      <ReadFailed problem={problem} />
      <VirtualTable label="Fills" columns={FILL_COLUMNS} rows={fills} rowKey={(f) => `${f.tradeId}/${f.orderId}`} height={props.height} onSorted={setShown} />
    </Panel>
  );
}
