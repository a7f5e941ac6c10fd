import { describe, expect, test } from "bun:test";
import { ipOf } from "./host-address";

// The one reading of a host as an IP address: what the system resolver (inet_aton) and the URL parser connect to.

describe("ipOf", () => {
  test.each([
    ["169.254.169.254", "169.254.169.254"],
    ["2852039166", "169.254.169.254"],
    ["0xa9fea9fe", "169.254.169.254"],
    ["0XA9FEA9FE", "169.254.169.254"],
    ["0251.0376.0251.0376", "169.254.169.254"],
    ["169.254.43518", "169.254.169.254"],
    ["2130706433", "127.0.0.1"],
    ["127.1", "127.0.0.1"],
    ["0x7f.1", "127.0.0.1"],
    ["017700000001", "127.0.0.1"],
    ["127.0.0.1.", "127.0.0.1"],
    ["0", "0.0.0.0"],
    ["[::ffff:127.0.0.1]", "127.0.0.1"],
    ["::ffff:a9fe:a9fe", "169.254.169.254"],
    ["[::FFFF:169.254.169.254]", "169.254.169.254"],
    ["::1", "::1"],
    ["[0:0::1]", "::1"],
    ["FE80::0:1", "fe80::1"],
    [" 10.0.0.5 ", "10.0.0.5"],
  ])("%s is the address %s", (host, address) => {
    expect(ipOf(host)).toBe(address);
  });

  test.each(["db1", "example.com", "1e100.net", "cafe.dead", "deadbeef", "_dmarc.example.com", "1.2.3.999", "a.1", "09", "fe80::1%eth0", "127.0.0.1:80", "http://127.0.0.1/", "user@127.0.0.1", ""])(
    "%p is not an address",
    (host) => {
      expect(ipOf(host)).toBeNull();
    },
  );
});
