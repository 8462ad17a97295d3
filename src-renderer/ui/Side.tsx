// A side word coloured the way every trader reads it.
export function Side(props: { side: string }): React.JSX.Element {
  const buy = props.side.toUpperCase() === 'BUY';
  return <span className={buy ? 'buy' : 'sell'}>{buy ? 'Buy' : props.side.toUpperCase() === 'SELL' ? 'Sell' : props.side}</span>;
}
