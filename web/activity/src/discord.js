// Discord's side of the Activity: the Embedded App SDK inside Discord, or its mock in an
// ordinary browser (the local mode: docs/activity.md). Either way the result is a session
// token the bot signed, naming the Discord user (the bot exchanges the OAuth2 code; the
// client secret never reaches the browser).
import { DiscordSDK, DiscordSDKMock } from '@discord/embedded-app-sdk';

/** Inside Discord the iframe's address carries `frame_id`; anywhere else it is the local mode. */
export function insideDiscord(params) {
  return params.has('frame_id');
}

async function api(path, body) {
  const response = await fetch(new URL(path, location.href), body === undefined ? {} : {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

/**
 * Connect to Discord (or the mock) and sign in.
 * Returns {sdk, session, user, channelId}.
 */
export async function signIn(params) {
  const { client_id: clientId } = await api('api/config');
  let sdk;
  if (insideDiscord(params)) {
    sdk = new DiscordSDK(clientId);
  } else {
    // The local mode: the user is named in the address (?user=ID&name=NAME&channel=ID) and
    // the bot, started with ACTIVITY_LOCAL_LOGIN, takes the mock's code for that user.
    const user = params.get('user') || '1';
    const name = params.get('name') || `user ${user}`;
    sdk = new DiscordSDKMock(clientId, params.get('guild') || null, params.get('channel') || null, null);
    sdk._updateCommandMocks({
      authorize: async () => ({ code: `local:${user}:${name}` }),
      authenticate: async ({ access_token: token }) => ({
        access_token: token, scopes: ['identify'], expires: '', application: { id: clientId, name: 'Durak' },
        user: { id: user, username: name, discriminator: '0', global_name: name, avatar: null, public_flags: 0 },
      }),
    });
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: clientId,
    response_type: 'code',
    state: '',
    prompt: 'none',
    scope: ['identify'],
  });
  const answer = await api('api/token', { code });
  await sdk.commands.authenticate({ access_token: answer.access_token });
  return { sdk, session: answer.session, user: answer.user, channelId: sdk.channelId };
}
