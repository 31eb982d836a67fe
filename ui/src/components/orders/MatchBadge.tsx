import type { JSX } from 'solid-js';
import { MATCH_STATE_ZH, type MatchState } from '../../../../domain/syb';

export default function MatchBadge(props: { state: MatchState }): JSX.Element {
  return (
    <span class={`or-match or-match-${props.state}`} data-testid="order-match" data-match={props.state}>
      {MATCH_STATE_ZH[props.state]}
    </span>
  );
}
