import { useState } from 'react';
import type { Messages } from '../../../shared/messages/index.ts';

// Hover and keyboard focus flip the card in CSS; a tap or click flips it through state, because a
// phone has no hover. The "Coming Soon" face is aria-hidden and said instead through the button's
// description and, on activation, a polite live region.
export function WalletButton({ words }: { words: Messages['wallet'] }) {
  const [flipped, setFlipped] = useState(false);
  return (
    <div className="wallet">
      <button
        type="button"
        className="wallet-flip"
        data-flipped={flipped}
        aria-describedby="wallet-soon"
        onClick={() => setFlipped((f) => !f)}
      >
        <span className="wallet-face wallet-front">{words.connect}</span>
        <span className="wallet-face wallet-back" aria-hidden="true">
          {words.soon}
        </span>
      </button>
      <span id="wallet-soon" className="visually-hidden">
        {words.soonDescription}
      </span>
      <span className="visually-hidden" role="status">
        {flipped ? words.soonAnnounced : ''}
      </span>
    </div>
  );
}
