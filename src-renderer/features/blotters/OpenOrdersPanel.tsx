// Open orders: cancel one, select several and cancel them, cancel all for the product or everything.
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Order } from '../../../src-shared/protocol/records';
import { cancelAll, cancelOrders } from '../../stores/desk-actions';
import { useDesk } from '../../stores/desk-store';
import { Panel } from '../../ui/Panel';
import { ReadFailed } from '../../ui/ReadFailed';
import { VirtualTable, type Column } from '../../ui/VirtualTable';
import { downloadCsv, toCsv } from '../../ui/csv';
import { ORDER_COLUMNS, ORDER_CSV, orderName } from './order-columns';

export function OpenOrdersPanel(props: { productId: string; height: number }): React.JSX.Element {
  const orders = useDesk(useShallow((s) => Object.values(s.openOrders)));
  const cancelling = useDesk((s) => s.cancelling);
  const problem = useDesk((s) => s.openOrdersProblem);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [shown, setShown] = useState<readonly Order[]>([]);
  const chosen = orders.filter((o) => selected.has(o.order_id)).map((o) => o.order_id);

  const columns = useMemo<Column<Order>[]>(() => {
    const flip = (id: string): void =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    return [
      {
        key: 'pick',
        header: 'Select',
        sortable: false,
        value: (o) => o.order_id,
        render: (o) => (
          <input type="checkbox" aria-label={`Select order ${o.client_order_id || o.order_id}`} checked={selected.has(o.order_id)} onChange={() => flip(o.order_id)} />
        ),
      },
      ...ORDER_COLUMNS,
      {
        key: 'cancel',
        header: 'Cancel',
        sortable: false,
        pinned: true,
        value: () => '',
        render: (o) => {
          const onItsWay = cancelling[o.order_id] === true;
          return (
            <button type="button" aria-label={`${onItsWay ? 'Cancelling' : 'Cancel'} ${orderName(o)}`} title={`Cancel order ${o.order_id}`} disabled={onItsWay || o.cancel_requested_at !== '0'} onClick={() => void cancelOrders([o.order_id])}>
              {onItsWay ? 'Cancelling…' : 'Cancel'}
            </button>
          );
        },
      },
    ];
  }, [selected, cancelling]);

  const tools = (
    <>
      <button type="button" disabled={chosen.length === 0} onClick={() => void cancelOrders(chosen).then(() => setSelected(new Set()))}>
        Cancel selected ({chosen.length})
      </button>
      <button type="button" onClick={() => void cancelAll(props.productId)}>Cancel all {props.productId}</button>
      <button type="button" onClick={() => void cancelAll()}>Cancel all</button>
      <button type="button" onClick={() => downloadCsv('open-orders.csv', toCsv(ORDER_CSV, shown))}>Export CSV</button>
    </>
  );
  return (
    <Panel title="Open orders" tools={tools} account>
      <ReadFailed problem={problem} />
      <VirtualTable label="Open orders" columns={columns} rows={orders} rowKey={(o) => o.order_id} height={props.height} onSorted={setShown} />
    </Panel>
  );
}
