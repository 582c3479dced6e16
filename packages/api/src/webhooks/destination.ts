/**
 * Where webhooks may point. A key holder names the URL and the service calls it, so without a
 * rule a webhook could reach into the network the service runs in (a database, a cloud metadata
 * endpoint). Private, loopback, link-local and other non-public addresses are refused unless
 * WEBHOOK_ALLOW_PRIVATE_DESTINATIONS=1; the rule is checked when a webhook is saved and again on
 * every connection (the name may resolve elsewhere by then).
 */
import dns from "node:dns";
import net, { type LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

/** IPv4 ranges (ipaddr.js's names) inside a network rather than on the internet. */
const INTERNAL_IPV4 = new Set([
  "unspecified",
  "broadcast",
  "multicast",
  "linkLocal",
  "loopback",
  "carrierGradeNat",
  "private",
]);
/**
 * Of ipaddr.js's `reserved` IPv4 ranges, those a network may use inside (the others are the
 * documentation ranges, which lead nowhere).
 */
const INTERNAL_RESERVED_IPV4 = ["192.0.0.0/24", "198.18.0.0/15", "240.0.0.0/4"].map((range) =>
  ipaddr.IPv4.parseCIDR(range),
);
const INTERNAL_IPV6 = new Set([
  "unspecified",
  "linkLocal",
  "multicast",
  "loopback",
  "uniqueLocal",
  "deprecatedSiteLocal",
  "discard",
]);

/**
 * The IPv4 address an IPv6 one carries, where it is a way to reach that IPv4 address: mapped
 * (`::ffff:a.b.c.d`), translated (RFC 6145, NAT64 RFC 6052), 6to4 (`2002:aabb:ccdd::`), Teredo
 * (the client address, inverted), and the deprecated compatible form (`::a.b.c.d`).
 */
function carriedIPv4(ip: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  const bytes = ip.toByteArray();
  const v4 = (at: number, invert = false) =>
    new ipaddr.IPv4(bytes.slice(at, at + 4).map((byte) => (invert ? byte ^ 0xff : byte)));
  switch (ip.range()) {
    case "ipv4Mapped":
    case "rfc6145":
    case "rfc6052":
      return v4(12);
    case "6to4":
      return v4(2);
    case "teredo":
      return v4(12, true);
    default:
      return bytes.slice(0, 12).every((byte) => byte === 0) ? v4(12) : undefined;
  }
}

/** True when `address` (an IP) is not a public one, in whatever form it is written. */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const ip = ipaddr.parse(address);
  if (ip.kind() === "ipv6") {
    const v6 = ip as ipaddr.IPv6;
    // :: and ::1 are IPv6's own, not the compatible form of 0.0.0.0 and 0.0.0.1.
    if (INTERNAL_IPV6.has(v6.range())) return true;
    const carried = carriedIPv4(v6);
    return carried ? isPrivateIPv4(carried) : false;
  }
  return isPrivateIPv4(ip as ipaddr.IPv4);
}

function isPrivateIPv4(ip: ipaddr.IPv4): boolean {
  return INTERNAL_IPV4.has(ip.range()) || INTERNAL_RESERVED_IPV4.some((range) => ip.match(range));
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
