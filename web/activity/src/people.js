// Who sits at the table: avatars (Discord's CDN through the Activity's URL mapping), a mark
// of their own for computers, initials when an avatar cannot load. Shared by the lobby and
// the table, with the two small helpers both draw with.

/** The URL mapping's prefix for cdn.discordapp.com (docs/activity.md, "URL Mappings"). */
export const CDN_PREFIX = '/discord-cdn';

export function fill(template, values) {
  return String(template ?? '').replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : `{${k}}`));
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * Where an avatar's CDN path loads from: inside Discord through the mapping (Discord's CSP
 * lets the page load nothing from another host), in the local mode from the CDN itself.
 */
export function avatarUrl(path, host = location.hostname) {
  return host.endsWith('.discordsays.com') ? `${CDN_PREFIX}/${path}` : `https://cdn.discordapp.com/${path}`;
}

/** Up to two letters of a name, for a seat whose avatar is not (yet) there. */
export function initials(name) {
  const words = String(name).trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[1]] : [words[0] || '?'];
  return letters.map((w) => [...w][0].toUpperCase()).join('').slice(0, 2) || '?';
}

// url -> true (loaded) / false (failed): a redraw does not blink back to the initials
const loaded = new Map();

/** A seat's round picture: the avatar over its initials, or the computers' own mark. */
export function avatar(seat, words) {
  const box = el('span', 'avatar');
  if (seat.computer) {
    box.classList.add('computer');
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', words['activity.computer'] || 'computer');
    box.append(el('span', 'mark', '⚙'));
    return box;
  }
  box.setAttribute('aria-hidden', 'true');
  box.append(el('span', 'initials', initials(seat.name)));
  if (!seat.avatar) return box;
  const url = avatarUrl(seat.avatar);
  if (loaded.get(url) === false) return box;
  const img = el('img');
  img.alt = '';
  img.decoding = 'async';
  img.referrerPolicy = 'no-referrer';
  if (loaded.get(url)) box.classList.add('loaded');
  img.addEventListener('load', () => { loaded.set(url, true); box.classList.add('loaded'); });
  img.addEventListener('error', () => { loaded.set(url, false); img.remove(); });
  img.src = url;
  box.append(img);
  return box;
}
