// Loopback helpers shared by the tests that talk to real servers on 127.0.0.1.
import { createServer } from 'node:http';

/** A port nothing listens on: bound, then closed. */
export async function closedPort() {
  const s = createServer();
  await new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address();
  await new Promise((resolve) => s.close(resolve));
  return port;
}
