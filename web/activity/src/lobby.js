// The lobby inside the Activity: the form that opens a table (the bot's /durak new, with the
// server's house rules) and the open lobby with the chat lobby's own buttons. The bot decides
// everything: which buttons a reader gets comes in the frame, and a press is sent as it is.
import { avatar, el, fill } from './people.js';

const BUTTONS = {
  join: 'lobby.button.join',
  start: 'lobby.button.start',
  ai: 'lobby.button.add_ai',
  unai: 'lobby.button.remove_ai',
  leave: 'lobby.button.leave',
  cancel: 'lobby.button.cancel',
};

export class Lobby {
  /** `send(message)` sends a lobby message (`{op: 'lobby', ...}`) to the bot. */
  constructor(root, send) {
    this.root = root;
    this.send = send;
    this.words = {};
    this.choice = {};
  }

  t(key, values = {}) {
    return fill(this.words[key] ?? key, values);
  }

  /** No game here: the form, or a notice where no table may be opened. */
  showIdle(frame) {
    const root = this.root;
    root.dataset.state = 'idle';
    delete root.dataset.version;
    if (!frame.can_open) {
      root.replaceChildren(el('p', 'notice', this.t('activity.idle')));
      return;
    }
    const form = el('form', 'lobby-form');
    form.id = 'lobby-form';
    form.append(el('h1', '', this.t('activity.lobby.open_title')));
    if (frame.closed) form.append(el('p', 'note', this.t('activity.lobby.closed')));
    const mode = this.select('preset', this.t('activity.lobby.mode'),
      frame.modes.map((m) => [m.key, m.name]), this.choice.preset ?? frame.preset);
    const about = el('p', 'about');
    const describe = () => {
      const m = frame.modes.find((x) => x.key === mode.select.value);
      about.textContent = m ? m.description : '';
    };
    mode.select.addEventListener('change', describe);
    describe();
    const seats = this.select('seats', this.t('activity.lobby.seats'),
      [['', this.t('activity.lobby.seats_auto')],
        ...[2, 3, 4, 5, 6].slice(0, frame.most_seats - 1).map((n) => [String(n), String(n)])],
      this.choice.seats ?? (frame.seats ? String(frame.seats) : ''));
    const deck = this.select('deck', this.t('option.deck_size.label'),
      frame.decks.map((n) => [String(n), String(n)]), this.choice.deck ?? String(frame.deck));
    const open = el('button', 'move move-open', this.t('activity.lobby.open'));
    open.type = 'submit';
    form.append(mode.label, about, seats.label, deck.label, el('p', 'note', this.t('activity.lobby.house_rules')), open);
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      this.choice = { preset: mode.select.value, seats: seats.select.value, deck: deck.select.value };
      this.send({
        op: 'lobby',
        action: 'new',
        form: {
          preset: mode.select.value,
          seats: seats.select.value ? Number(seats.select.value) : null,
          deck: Number(deck.select.value),
        },
      });
    });
    root.replaceChildren(form);
  }

  select(name, text, options, value) {
    const label = el('label', 'field');
    label.append(el('span', '', text));
    const select = el('select');
    select.name = name;
    for (const [v, shown] of options) {
      const option = el('option', '', shown);
      option.value = v;
      select.append(option);
    }
    if ([...select.options].some((o) => o.value === value)) select.value = value;
    label.append(select);
    return { label, select };
  }

  /** An open lobby: its mode, its seats (free ones too), the reader's buttons. */
  show(frame) {
    const root = this.root;
    const focused = document.activeElement?.dataset?.focusKey;
    root.dataset.state = 'lobby';
    root.dataset.lobby = frame.game_id;
    delete root.dataset.version;
    const box = el('section', 'lobby');
    box.append(el('h1', '', this.t('lobby.title', { preset: frame.mode })));
    box.append(el('p', 'about', `${frame.description} · ${frame.deck}`));
    box.append(el('p', 'note', this.t('activity.lobby.seats_taken', { taken: frame.seats.length, max: frame.max_seats })));
    const list = el('ul', 'lobby-seats');
    list.setAttribute('aria-label', this.t('table.players'));
    for (const seat of frame.seats) {
      const item = el('li', seat.you ? 'you' : '');
      item.append(avatar(seat, this.words));
      const name = el('span', 'name', seat.name);
      item.append(name);
      if (seat.host) item.append(el('span', 'tag', this.t('activity.host')));
      if (seat.level) item.append(el('span', 'tag level', this.t(`difficulty.${seat.level}`)));
      list.append(item);
    }
    for (let i = frame.seats.length; i < frame.max_seats; i += 1) {
      const item = el('li', 'free');
      item.append(el('span', 'avatar empty'), el('span', 'name', this.t('activity.lobby.free_seat')));
      list.append(item);
    }
    box.append(list);
    const host = frame.actions.includes('start');
    const seated = frame.seats.some((s) => s.you);
    if (host) box.append(el('p', 'note', this.t('activity.lobby.you_host')));
    else if (seated) box.append(el('p', 'note', this.t('activity.lobby.waiting_host')));
    const bar = el('div', 'actions lobby-actions');
    bar.id = 'lobby-actions';
    if (frame.actions.includes('level')) {
      // the chat lobby's level menu: every computer seated, and those added next
      const level = this.select('level', this.t('activity.lobby.level'),
        frame.levels.map((l) => [l, this.t(`difficulty.${l}`)]), frame.level);
      level.select.dataset.focusKey = 'l-level';
      level.select.addEventListener('change', () => this.send({ op: 'lobby', action: 'level', level: level.select.value }));
      level.label.classList.add('level-field');
      bar.append(level.label);
    }
    for (const action of frame.actions) {
      if (action === 'level') continue;
      const button = el('button', `move lobby-${action}`, this.t(BUTTONS[action]));
      button.type = 'button';
      button.dataset.action = action;
      button.dataset.focusKey = `l-${action}`;
      button.addEventListener('click', () => this.send({ op: 'lobby', action }));
      bar.append(button);
    }
    box.append(bar);
    root.replaceChildren(box);
    if (focused) root.querySelector(`[data-focus-key="${CSS.escape(focused)}"]`)?.focus();
  }
}
