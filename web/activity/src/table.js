// The table: draws a frame from the bot (bot/activity/frames.py) and turns clicks, drags and
// keys into moves from the frame's own list. Every text is set as text, never as markup: a
// player's name is whatever they chose.
import { cardFace, SUIT_SYMBOLS } from './cards.js';
import { BEAT_KINDS, beatMove, buttonMoves, playable, tableMove, toggle } from './moves.js';
import { avatar, el, fill } from './people.js';

const VERBS = {
  attack: 'hand.button.attack',
  throw: 'hand.button.throw_in',
  pile: 'hand.button.pile_on',
  transfer: 'hand.button.transfer',
  show: 'hand.button.show_trump',
  exchange: 'hand.button.exchange_trump',
  swap: 'hand.button.swap',
  defend: 'hand.button.defend',
  conceal: 'hand.button.defend',
  take: 'hand.button.take',
  accept: 'hand.button.accept',
  challenge: 'hand.button.challenge',
  top: 'hand.button.lead_top',
  // reverse fool: the same moves with a card named by its place in the hand
  lead_blind: 'hand.button.attack',
  throw_blind: 'hand.button.throw_in',
  beat_blind: 'hand.button.defend',
  transfer_blind: 'hand.button.transfer',
};

export class Table {
  /** `play(move)` sends a move; `root` is the page's #app. */
  constructor(root, play) {
    this.root = root;
    this.play = play;
    this.words = {};
    this.frame = null;
    this.selected = [];
    this.slot = null;
    this.previous = null;
    root.addEventListener('keydown', (e) => this.key(e));
  }

  t(key, values = {}) {
    return fill(this.words[key] ?? key, values);
  }

  label(move) {
    const verb = move.kind === 'pass'
      ? this.t(this.frame.taking ? 'hand.button.pass' : 'hand.button.done')
      : this.t(VERBS[move.kind] || move.kind);
    if (move.slots) {
      const slot = this.t('activity.slot', { number: move.slots[0] + 1 });
      const on = move.on && move.on.length ? ` → ${this.cardText(move.on[0])}` : '';
      return `${verb}: ${slot}${on}`;
    }
    if (!move.cards || !move.cards.length) return verb;
    if (BEAT_KINDS.includes(move.kind) && move.on && move.on.length === 1 && move.cards.length === 1) {
      // "Beat 8♣" would name the card beaten; the chat's words name both
      return this.t('hand.button.defend_with', {
        attack: this.cardText(move.on[0]), card: this.cardText(move.cards[0]),
      });
    }
    return `${verb} ${move.cards.map((c) => this.cardText(c)).join(' ')}`;
  }

  cardText(card) {
    const probe = document.createElement('span');
    cardFace(probe, card, this.words, this.frame.local_ranks, null);
    return probe.querySelector('.corner').textContent;
  }

  message(text) {
    this.root.replaceChildren(el('p', 'notice', text));
    this.root.dataset.state = 'notice';
  }

  select(card) {
    this.selected = toggle(this.frame.moves, this.selected, card);
    this.draw();
    const again = this.root.querySelector(`#hand [data-card="${CSS.escape(card)}"]`);
    if (again) again.focus();
  }

  send(move) {
    if (!move) return;
    this.selected = [];
    this.slot = null;
    this.root.classList.add('sending');
    this.play(move);
  }

  show(frame) {
    this.previous = this.frame;
    if (!this.frame || frame.game_id !== this.frame.game_id || frame.version !== this.frame.version) {
      this.selected = [];
      this.slot = null;
    }
    this.frame = frame;
    this.root.classList.remove('sending');
    this.draw();
  }

  draw() {
    const f = this.frame;
    const root = this.root;
    root.dataset.state = 'game';
    root.dataset.version = f.version;
    root.dataset.seat = f.seat;
    const focused = document.activeElement?.dataset?.focusKey;
    const oldTable = new Set((this.previous?.table || []).flat().filter(Boolean));
    const oldHand = new Set(this.previous?.hand || []);
    const fresh = this.previous && this.previous.game_id === f.game_id;
    root.replaceChildren(
      this.drawSeats(f),
      this.drawBoard(f, fresh ? oldTable : null),
      this.drawStatus(f),
      this.drawActions(f),
      this.drawHand(f, fresh ? oldHand : null),
    );
    if (fresh) this.ghost(this.previous, f);
    if (focused) root.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
  }

  drawSeats(f) {
    const box = el('section', 'seats');
    box.setAttribute('aria-label', this.t('table.players'));
    const n = f.seats.length;
    const order = f.seat >= 0 ? [...Array(n - 1).keys()].map((i) => (f.seat + 1 + i) % n) : [...Array(n).keys()];
    for (const s of order) box.append(this.seatBadge(f, f.seats[s]));
    // the reader's own seat too where the variant marks seats (a score, a team, closed cards)
    const me = f.seat >= 0 ? f.seats[f.seat] : null;
    if (me && (me.score || me.team || me.closed)) box.append(this.seatBadge(f, me, true));
    return box;
  }

  seatBadge(f, info, mine = false) {
    const badge = el('div', `seat role-${info.role}`);
    badge.dataset.seat = info.seat;
    badge.dataset.count = info.count;
    if (mine) badge.classList.add('me');
    if (info.turn) badge.classList.add('turn');
    const name = el('span', 'name', mine ? `${info.name} (${this.t('activity.you')})` : info.name);
    const count = el('span', 'count', String(info.count));
    count.setAttribute('aria-label', `${this.t('activity.cards_left')}: ${info.count}`);
    const backs = el('span', 'backs');
    backs.setAttribute('aria-hidden', 'true');
    for (let i = 0; i < Math.min(info.count, 8); i += 1) backs.append(el('i'));
    const role = el('span', 'role', this.t(info.left ? 'role.left' : `role.${info.role}`));
    badge.append(avatar(info, this.words), name, backs, count, role);
    const marks = el('span', 'marks');
    if (info.team) {
      const partner = f.seat >= 0 && !mine && f.seats[f.seat].team === info.team;
      marks.append(el('span', `tag team team-${info.team}`,
        partner ? this.t('activity.partner') : this.t('activity.team', { team: info.team })));
    }
    if (f.own_trumps && info.trump) {
      const suit = el('span', `tag own-trump suit-${info.trump}`, `${this.t('activity.trump')} ${SUIT_SYMBOLS[info.trump]}`);
      marks.append(suit);
    }
    if (info.closed) marks.append(el('span', 'tag closed', this.t('activity.closed_cards', { count: info.closed })));
    if (info.score) marks.append(el('span', 'tag score', info.score));
    if (f.shown && f.shown.seat === info.seat) {
      marks.append(el('span', 'tag shown', this.t('activity.shown', { card: this.cardText(f.shown.card) })));
    }
    if (marks.childElementCount) badge.append(marks);
    if (info.turn && f.deadline) badge.append(this.timer(f.deadline));
    if (f.result && f.result.fool === info.seat) badge.classList.add('fool');
    return badge;
  }

  timer(deadline) {
    const left = Math.round(deadline - Date.now() / 1000);
    const node = el('span', 'timer');
    if (left > 0 && left < 3600) node.textContent = `⏱ ${this.t('activity.seconds', { seconds: left })}`;
    return node;
  }

  drawBoard(f, oldTable) {
    const board = el('section', 'board');
    const deck = el('div', 'deck');
    const talon = el('div', 'talon');
    talon.textContent = f.talon ? this.t('table.talon', { count: f.talon }) : this.t('table.talon_empty');
    const stack = el('div', 'stack');
    stack.setAttribute('aria-hidden', 'true');
    if (f.trump_card && f.trump_in_talon) {
      stack.append(cardFace(el('div', 'trump-card'), f.trump_card, this.words, f.local_ranks, f.trump));
    }
    if (f.talon > (f.trump_in_talon ? 1 : 0)) stack.append(el('div', 'card back'));
    if (!f.trump) deck.append(el('div', 'no-trump', this.t('table.no_trump')));
    deck.append(stack, talon);
    if (f.trump) {
      const word = this.t(f.own_trumps && f.seat >= 0 ? 'activity.your_trump' : 'activity.trump');
      deck.append(el('div', `trump-suit suit-${f.trump}`, `${word}: ${SUIT_SYMBOLS[f.trump]}`));
    }
    deck.append(el('div', 'discard', this.t('table.discard', { count: f.discard })));
    if (f.out_of_play) deck.append(el('div', 'out-of-play', this.t('activity.out_of_play', { count: f.out_of_play })));
    const table = el('div', 'table');
    table.id = 'table';
    table.setAttribute('aria-label', this.t('activity.table'));
    const drop = tableMove(f.moves, this.selected);
    if (drop) {
      table.classList.add('target');
      table.tabIndex = 0;
      table.dataset.focusKey = 'table';
      table.setAttribute('role', 'button');
      table.setAttribute('aria-label', this.t('activity.play_here'));
      table.addEventListener('click', (e) => { if (e.target === table || e.target.classList.contains('hint')) this.send(drop); });
      table.addEventListener('keydown', (e) => { if ((e.key === 'Enter' || e.key === ' ') && e.target === table) { e.preventDefault(); this.send(drop); } });
    }
    this.dropZone(table, () => tableMove(f.moves, this.selected));
    if (!f.table.length) table.append(el('span', 'hint', this.t('activity.table_empty')));
    f.table.forEach(([attack, defence], i) => {
      const pair = el('div', 'pair');
      const a = cardFace(el('button', ''), attack, this.words, f.local_ranks, f.trump);
      a.type = 'button';
      a.dataset.focusKey = `t-${attack}`;
      const beat = defence === null ? beatMove(f.moves, this.selected, attack) : null;
      if (beat) {
        a.classList.add('target');
        a.title = this.t('activity.beat_this');
        a.addEventListener('click', () => this.send(beat));
      } else {
        a.tabIndex = -1;
      }
      this.dropZone(a, () => (defence === null ? beatMove(f.moves, this.selected, attack) : null));
      if (oldTable && !oldTable.has(attack)) a.classList.add('enter');
      pair.append(a);
      if (defence !== null) {
        const d = cardFace(el('div', 'defence'), defence, this.words, f.local_ranks, f.trump);
        if (oldTable && !oldTable.has(defence)) d.classList.add('enter');
        pair.append(d);
      } else if (f.face_down.includes(i)) {
        const back = el('div', 'card back defence', '');
        back.setAttribute('aria-label', this.t('activity.face_down'));
        pair.append(back);
      }
      table.append(pair);
    });
    board.append(deck, table);
    return board;
  }

  dropZone(node, moveFor) {
    node.addEventListener('dragover', (e) => { if (moveFor()) { e.preventDefault(); node.classList.add('over'); } });
    node.addEventListener('dragleave', () => node.classList.remove('over'));
    node.addEventListener('drop', (e) => {
      e.preventDefault();
      e.stopPropagation();
      node.classList.remove('over');
      this.send(moveFor());
    });
  }

  drawStatus(f) {
    const status = el('p', 'status');
    status.id = 'status';
    status.setAttribute('aria-live', 'polite');
    const me = f.seat >= 0 ? f.seats[f.seat] : null;
    let text;
    if (f.result) {
      const fool = f.result.fool;
      text = `${this.t('activity.finished')} ${fool === null || fool === undefined
        ? this.t('activity.draw') : this.t('activity.fool', { name: f.seats[fool].name })}`;
    } else if (!me) {
      text = this.t('activity.watching') + (f.delayed ? ` ${this.t('watch.delayed')}` : '');
    } else if (me.turn) {
      let hint = 'activity.choose_card';
      if (this.selected.length) {
        const beats = f.table.some(([a, d]) => d === null && beatMove(f.moves, this.selected, a));
        hint = beats ? 'activity.choose_beat' : 'activity.choose_table';
      }
      text = `${this.t('activity.your_turn')} ${this.t(hint)}`;
    } else {
      const waiting = f.seats.filter((s) => s.turn).map((s) => s.name).join(', ');
      text = waiting ? this.t('table.turn_of', { name: waiting }) : this.t(`role.${me.role}`);
    }
    status.textContent = text;
    return status;
  }

  drawActions(f) {
    const bar = el('div', 'actions');
    bar.id = 'actions';
    const slotted = (m) => !m.slots || this.slot === null || this.slot === undefined || m.slots[0] === this.slot;
    for (const move of buttonMoves(f.moves, this.selected).filter(slotted)) {
      const button = el('button', `move move-${move.kind}`, this.label(move));
      button.type = 'button';
      button.dataset.kind = move.kind;
      button.dataset.focusKey = `m-${move.send}`;
      button.addEventListener('click', () => this.send(move));
      bar.append(button);
    }
    if (f.status !== 'running' && this.again) {
      // the game is over: the form that opens the next table (or the channel's next game)
      const again = el('button', 'move move-again', this.t('activity.lobby.again'));
      again.type = 'button';
      again.dataset.focusKey = 'again';
      again.addEventListener('click', () => this.again());
      bar.append(again);
    }
    return bar;
  }

  drawHand(f, oldHand) {
    const hand = el('section', 'hand');
    hand.id = 'hand';
    hand.setAttribute('aria-label', this.t('activity.hand'));
    const n = f.hand.length;
    if (f.hidden_hand && f.seat >= 0) {
      // reverse fool: the hand is held backwards; its cards are played by their place
      const count = f.seats[f.seat].count;
      for (let i = 0; i < count; i += 1) {
        // a click plays the card in this place when it has one move; with several (which
        // attack card to beat) the buttons then show only this card's
        const moves = f.moves.filter((m) => m.slots && m.slots[0] === i);
        const back = el('button', 'card back');
        back.type = 'button';
        back.dataset.focusKey = `s-${i}`;
        back.style.setProperty('--i', String(i - (count - 1) / 2));
        back.setAttribute('aria-label', this.t('activity.slot', { number: i + 1 }));
        back.classList.add(moves.length ? 'playable' : 'idle');
        if (this.slot === i) {
          back.classList.add('selected');
          back.setAttribute('aria-pressed', 'true');
        }
        if (moves.length === 1) back.addEventListener('click', () => this.send(moves[0]));
        else if (moves.length) back.addEventListener('click', () => { this.slot = this.slot === i ? null : i; this.draw(); });
        else back.setAttribute('aria-disabled', 'true');
        hand.append(back);
      }
      hand.append(el('p', 'hint hidden-hint', this.t('activity.hidden_hand')));
      return hand;
    }
    f.hand.forEach((card, i) => {
      const button = cardFace(el('button', ''), card, this.words, f.local_ranks, f.trump);
      button.type = 'button';
      button.dataset.focusKey = `h-${card}`;
      button.style.setProperty('--i', String(i - (n - 1) / 2));
      const can = playable(f.moves, card);
      button.classList.add(can ? 'playable' : 'idle');
      if (this.selected.includes(card)) {
        button.classList.add('selected');
        button.setAttribute('aria-pressed', 'true');
      }
      if (oldHand && !oldHand.has(card)) button.classList.add('enter');
      if (can) {
        button.draggable = true;
        button.addEventListener('click', () => this.select(card));
        button.addEventListener('dragstart', (e) => {
          if (!this.selected.includes(card)) this.selected = [card];
          e.dataTransfer.setData('text/plain', card);
          e.dataTransfer.effectAllowed = 'move';
          requestAnimationFrame(() => this.draw());
        });
      } else {
        button.setAttribute('aria-disabled', 'true');
      }
      hand.append(button);
    });
    return hand;
  }

  /** The cards that just left the table fly to the discard (bito) or to whoever took them. */
  ghost(before, after) {
    if (!before.table.length || after.table.length) return;
    const defender = before.defender;
    const taken = after.seats[defender] && after.seats[defender].count > before.seats[defender].count;
    const layer = el('div', `ghost ${taken ? 'taken' : 'discarded'}`);
    layer.setAttribute('aria-hidden', 'true');
    for (const card of before.table.flat().filter(Boolean)) {
      layer.append(cardFace(el('div', ''), card, this.words, before.local_ranks, before.trump));
    }
    this.root.querySelector('.board')?.append(layer);
    setTimeout(() => layer.remove(), 320);
  }

  key(e) {
    if (!this.frame || this.root.dataset.state !== 'game') return;
    if (e.key === 'Escape' && (this.selected.length || this.slot !== null)) {
      this.selected = [];
      this.slot = null;
      this.draw();
      return;
    }
    if ((e.key === 'ArrowLeft' || e.key === 'ArrowRight') && e.target.closest?.('#hand')) {
      const cards = [...this.root.querySelectorAll('#hand .card')];
      const i = cards.indexOf(e.target);
      const next = cards[i + (e.key === 'ArrowLeft' ? -1 : 1)];
      if (next) { e.preventDefault(); next.focus(); }
    }
  }
}
