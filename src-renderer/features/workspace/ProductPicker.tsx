// A product list for the desk and for linking a panel to one product.
import { PRODUCTS } from '../../../src-shared/protocol/products';
import { useDesk } from '../../stores/desk-store';

export function ProductPicker(props: { label: string; value: string; onChange: (id: string) => void; followLabel?: string }): React.JSX.Element {
  const products = useDesk((s) => s.products);
  const ids = products.length > 0 ? products.map((p) => p.id) : PRODUCTS.map((p) => p.id);
  return (
    <select aria-label={props.label} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
      {props.followLabel !== undefined && <option value="">{props.followLabel}</option>}
      {ids.map((id) => <option key={id} value={id}>{id}</option>)}
    </select>
  );
}
