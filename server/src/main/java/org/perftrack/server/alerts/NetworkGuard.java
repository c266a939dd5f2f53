package org.perftrack.server.alerts;

import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Where a webhook may connect: never to loopback, link-local (169.254.169.254, the cloud metadata service),
 * private, unique-local, shared (100.64/10), unspecified or multicast addresses, unless an operator lists their
 * network in {@code perftrack.webhooks.allowed-networks}. The host is checked after DNS resolution, every address it
 * resolves to, and the caller connects to the address checked here, so a name that resolves elsewhere a moment later
 * (DNS rebinding) changes nothing.
 */
@Component
class NetworkGuard {

  /** Why an address may not be reached; the message names it and the setting that would allow it. */
  static final class Refused extends Exception {
    Refused(String message) {
      super(message);
    }
  }

  /** A network {@code address/prefix}. */
  record Cidr(byte[] network, int prefix) {

    static Cidr parse(String text) {
      String[] parts = text.split("/", 2);
      try {
        if (parts[0].isEmpty() || !parts[0].matches("[0-9A-Fa-f:.]+")) {
          throw new IllegalArgumentException("not an IP address");
        }
        byte[] address = InetAddress.getByName(parts[0]).getAddress(); // a literal: no lookup
        int prefix = parts.length == 2 ? Integer.parseInt(parts[1]) : address.length * 8;
        if (prefix < 0 || prefix > address.length * 8) {
          throw new IllegalArgumentException("prefix out of range");
        }
        return new Cidr(address, prefix);
      } catch (UnknownHostException | IllegalArgumentException e) {
        throw new IllegalArgumentException("perftrack.webhooks.allowed-networks: '" + text
            + "' is not a network such as 10.1.2.0/24 or fd00::/8", e);
      }
    }

    boolean contains(InetAddress a) {
      byte[] b = a.getAddress();
      if (b.length != network.length) {
        return false;
      }
      int bits = network.length * 8;
      BigInteger mask = BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
          .xor(BigInteger.ONE.shiftLeft(bits - prefix).subtract(BigInteger.ONE));
      return new BigInteger(1, b).and(mask).equals(new BigInteger(1, network).and(mask));
    }
  }

  private static final List<Cidr> SHARED = List.of(Cidr.parse("100.64.0.0/10"), Cidr.parse("0.0.0.0/8"),
      Cidr.parse("fc00::/7"), Cidr.parse("64:ff9b::/96"));

  private final List<Cidr> allowed;

  NetworkGuard(WebhooksProperties props) {
    this.allowed = props.networks();
  }

  /** The address to connect to for {@code host}: its first, once every address it resolves to may be reached. */
  InetAddress check(String host) throws Refused {
    InetAddress[] addresses;
    try {
      addresses = InetAddress.getAllByName(host);
    } catch (UnknownHostException e) {
      throw new Refused("the host " + host + " is not known (DNS)");
    }
    for (InetAddress a : addresses) {
      String range = internal(a);
      if (range != null && allowed.stream().noneMatch(c -> c.contains(a))) {
        throw new Refused(host + (host.equals(a.getHostAddress()) ? "" : " (" + a.getHostAddress() + ")") + " is a "
            + range + " address; webhooks reach it only when perftrack.webhooks.allowed-networks lists its network");
      }
    }
    return addresses[0];
  }

  /** The kind of internal range {@code a} is in, or null for a public address. */
  static String internal(InetAddress a) {
    if (a instanceof Inet6Address six && isMappedV4(six.getAddress())) {
      try {
        return internal(InetAddress.getByAddress(java.util.Arrays.copyOfRange(six.getAddress(), 12, 16)));
      } catch (UnknownHostException e) {
        return "private";
      }
    }
    if (a.isLoopbackAddress()) {
      return "loopback";
    }
    if (a.isLinkLocalAddress()) {
      return "link-local";
    }
    if (a.isSiteLocalAddress() || SHARED.stream().anyMatch(c -> c.contains(a))) {
      return "private";
    }
    if (a.isAnyLocalAddress() || a.isMulticastAddress()) {
      return a.isAnyLocalAddress() ? "unspecified" : "multicast";
    }
    return a instanceof Inet4Address || a instanceof Inet6Address ? null : "unknown";
  }

  private static boolean isMappedV4(byte[] b) {
    for (int i = 0; i < 10; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return b[10] == (byte) 0xff && b[11] == (byte) 0xff;
  }
}
