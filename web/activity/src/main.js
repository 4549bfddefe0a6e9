// The Activity's client: sign in through Discord (or its mock), open one socket to the bot,
// draw every frame it sends, send the moves the player makes. The bot holds the game; a
// reload or a dropped connection simply asks for the current frame again.
import { signIn } from './discord.js';
import { Lobby } from './lobby.js';
import { Table } from './table.js';

const root = document.getElementById('app');
const params = new URLSearchParams(location.search);
const wordsCache = {};
let auth = null;
let socket = null;
let retry = 0;
let locale = (navigator.language || 'en').toLowerCase().startsWith('ru') ? 'ru' : 'en';

const table = new Table(root, (move) => send({ op: 'act', version: table.frame.version, action: move.send }));
const lobby = new Lobby(root, (message) => send(message));
table.again = () => hello();

async function words(lang) {
  if (!wordsCache[lang]) {
    const response = await fetch(new URL(`api/strings/${lang}`, location.href));
    wordsCache[lang] = await response.json();
  }
  return wordsCache[lang];
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) {
    socket.send(JSON.stringify({ ...message, token: auth.session }));
  }
}

/** Who is here and where (again after a game: the bot answers with what the channel has now). */
function hello() {
  send({ op: 'hello', channel_id: auth.channelId, locale: navigator.language || 'en' });
}

function toast(text) {
  const box = document.getElementById('toast');
  box.textContent = text;
  box.classList.add('shown');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => box.classList.remove('shown'), 3500);
}

/** The words of the language a frame speaks (a game's, or the reader's for the form). */
async function speak(lang) {
  if (lang !== locale || !table.words['activity.title']) {
    locale = lang === 'ru' ? 'ru' : 'en';
    table.words = await words(locale);
    document.documentElement.lang = locale;
    document.title = table.words['activity.title'];
  }
  lobby.words = table.words;
}

async function receive(message) {
  if (message.op === 'frame') {
    await speak(message.locale);
    table.show(message);
  } else if (message.op === 'idle') {
    await speak(message.locale);
    table.frame = null;
    lobby.showIdle(message);
  } else if (message.op === 'lobby') {
    await speak(message.locale);
    table.frame = null;
    lobby.show(message);
  } else if (message.op === 'refused') {
    toast(message.text);
  } else if (message.op === 'unauthorized') {
    sessionStorage.removeItem('durak-session');
    table.message(table.words['activity.signed_out']);
  }
}

function connect() {
  const url = new URL('ws', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  socket = new WebSocket(url);
  socket.onopen = () => {
    retry = 0;
    hello();
  };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = () => {
    if (root.dataset.state === 'notice' && root.textContent === table.words['activity.signed_out']) return;
    toast(table.words['activity.reconnecting']);
    retry += 1;
    setTimeout(connect, Math.min(5000, 250 * 2 ** retry));
  };
}

async function start() {
  table.words = await words(locale);
  table.message(table.words['activity.connecting']);
  auth = await signIn(params);
  connect();
}

// For the browser tests (tests/activity/): the state and the raw socket, so a test can also
// send what no button would (a forged move) and see it refused.
window.durak = { table, lobby, send, get socket() { return socket; } };

start().catch((error) => {
  console.error(error);
  table.message(String(error));
});
