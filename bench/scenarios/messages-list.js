/** GET the default page of messages of a 1,000-message conversation (user messages only, seeded through the API). */
const { conversation, load, seed, userMessage } = require('../harness');

const MESSAGES = 1000;

module.exports = {
  name: 'messages-list',
  async run({ service }) {
    const { url, secret, headers } = await conversation(service, 'Messages bench');
    // The conversation starts with its first message; no mention, so no agent answers.
    await seed(MESSAGES - 1, 8, (i) => ({
      url: `${url}/messages`,
      init: { method: 'POST', headers, body: JSON.stringify(userMessage(`Message ${i + 2}`)) },
    }));
    const result = await load({ url: `${url}/messages`, headers: { Authorization: `Bearer ${secret}` } });
    return [{ scenario: `messages list (${MESSAGES} messages, default page)`, ...result, note: '50 a page' }];
  },
};
