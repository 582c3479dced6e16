/**
 * Where webhooks may point. A key holder names the URL and the service calls it, so without a
 * rule a webhook could reach into the network the service runs in (a database, a cloud metadata
 * endpoint). Private, loopback, link-local and other non-public addresses are refused unless
 * WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=1; the rule is checked when a webhook is saved and again on
 * every connection (the name may resolve elsewhere by then).
 */
import dns from "node:dns";
import net, { type LookupFunction } from "node:net";

const blocked = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  blocked.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(address, prefix, "ipv6");
}

/** True when `address` (an IP) is not a public one. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return blocked.check(mapped[1], "ipv4");
  return blocked.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}

export class DestinationRefused extends Error {}

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** Refuses (DestinationRefused) a URL whose host is, or resolves to, a non-public address. */
export async function checkDestination(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  const host = hostOf(url);
  const addresses = net.isIP(host)
    ? [host]
    : await dns.promises.lookup(host, { all: true }).then(
        (found) => found.map((entry) => entry.address),
        () => {
          throw new DestinationRefused(`${host} does not resolve`);
        },
      );
  const refused = addresses.find(isPrivateAddress);
  if (refused) {
    throw new DestinationRefused(`${host} is a private address (${refused})`);
  }
}

/** A DNS lookup for outgoing requests that fails on non-public addresses. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (error, found) => {
    if (error) return callback(error, "", 4);
    const entries = found as dns.LookupAddress[];
    const refused = entries.find((entry) => isPrivateAddress(entry.address));
    if (refused) {
      return callback(new DestinationRefused(`${hostname} resolved to ${refused.address}`), "", 4);
    }
    if (options.all)
      return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, entries);
    const first = entries[0];
    if (!first) return callback(new Error(`${hostname} has no address`), "", 4);
    callback(null, first.address, first.family);
  });
};
