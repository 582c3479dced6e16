/**
 * A real HTTP server on loopback standing in for an integrator's webhook endpoint: it keeps
 * every delivery (headers, raw body, when), answers what the test tells it, and counts
 * deliveries of one message that overlap in time.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Delivery {
  /** The path delivered to: give each webhook its own to tell them apart. */
  path: string;
  headers: Record<string, string>;
  body: string;
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  deliveries: Delivery[];
  /** The status to answer the next delivery with (200 unless set). */
  answer: (delivery: Delivery) => number;
  /** How long to wait before answering. */
  delayMs: number;
  /** The most deliveries of one message to one path that were open at the same moment. */
  mostAtOnce(): number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const open = new Map<string, number>();
  let mostAtOnce = 0;
  const receiver: WebhookReceiver = {
    url: "",
    deliveries: [],
    answer: () => 200,
    delayMs: 0,
    mostAtOnce: () => mostAtOnce,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([name, value]) => [name, String(value)]),
      );
      const delivery = {
        path: req.url ?? "/",
        headers,
        body: Buffer.concat(chunks).toString("utf8"),
        receivedAt: Date.now(),
      };
      // One message is one webhook-id at one endpoint (other endpoints get the same id).
      const id = `${delivery.path} ${headers["webhook-id"] ?? ""}`;
      open.set(id, (open.get(id) ?? 0) + 1);
      mostAtOnce = Math.max(mostAtOnce, open.get(id) ?? 0);
      receiver.deliveries.push(delivery);
      const status = receiver.answer(delivery);
      setTimeout(() => {
        open.set(id, (open.get(id) ?? 1) - 1);
        res.writeHead(status).end();
      }, receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
