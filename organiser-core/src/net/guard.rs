//! The address guard of outbound requests (DESIGN.md "Running it": feeds
//! refuse loopback, private, link-local and unspecified addresses): which
//! addresses a request that does not allow private ones may not reach.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Whether `ip` is not a public unicast address: loopback, private,
/// link-local, shared (CGNAT), multicast, unspecified, broadcast, reserved,
/// documentation or benchmarking, or an IPv6 form that carries such an IPv4
/// address (mapped, compatible, NAT64, 6to4).
pub(super) fn refuses(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => refuses_v4(ip),
        IpAddr::V6(ip) => refuses_v6(ip),
    }
}

fn refuses_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_private() // 10/8, 172.16/12, 192.168/16
        || ip.is_loopback() // 127/8
        || ip.is_link_local() // 169.254/16
        || ip.is_multicast() // 224/4
        || ip.is_documentation() // 192.0.2/24, 198.51.100/24, 203.0.113/24
        || a == 0 // 0/8 "this network", 0.0.0.0 included
        || a >= 240 // 240/4 reserved, 255.255.255.255 included
        || (a == 100 && b & 0xc0 == 64) // 100.64/10 shared (CGNAT)
        || (a == 192 && b == 0 && c == 0) // 192.0.0/24 protocol assignments
        || (a == 198 && b & 0xfe == 18) // 198.18/15 benchmarking
}

fn refuses_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    let embedded = Ipv4Addr::from_bits(ip.to_bits() as u32);
    if let Some(v4) = ip.to_ipv4_mapped() {
        return refuses_v4(v4); // ::ffff:0:0/96
    }
    match s {
        // ::/96: unspecified, loopback and the deprecated IPv4-compatible form.
        [0, 0, 0, 0, 0, 0, _, _] => true,
        // 64:ff9b::/96, NAT64 of an IPv4 address.
        [0x64, 0xff9b, 0, 0, 0, 0, _, _] => refuses_v4(embedded),
        // 64:ff9b:1::/48, local-use NAT64.
        [0x64, 0xff9b, 1, ..] => true,
        // 100::/64, discard only.
        [0x100, 0, 0, 0, ..] => true,
        // 2001::/32 Teredo (its IPv4 address is hidden), 2001:db8::/32
        // documentation.
        [0x2001, 0 | 0xdb8, ..] => true,
        // 2002::/16, 6to4 of an IPv4 address.
        [0x2002, hi, lo, ..] => {
            refuses_v4(Ipv4Addr::from_bits(u32::from(hi) << 16 | u32::from(lo)))
        }
        // 3fff::/20 documentation.
        [0x3fff, second, ..] if second & 0xf000 == 0 => true,
        _ => {
            ip.is_multicast() // ff00::/8
                || ip.is_unique_local() // fc00::/7
                || ip.is_unicast_link_local() // fe80::/10
                || s[0] & 0xffc0 == 0xfec0 // fec0::/10, deprecated site-local
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(address: &str, refused: bool) {
        let ip: IpAddr = address.parse().expect("an IP address");
        assert_eq!(refuses(ip), refused, "{address}");
    }

    #[test]
    fn ipv4_addresses() {
        for (address, refused) in [
            ("0.0.0.0", true),
            ("0.1.2.3", true),
            ("127.0.0.1", true),
            ("127.255.255.254", true),
            ("10.0.0.1", true),
            ("10.255.255.255", true),
            ("172.15.255.255", false),
            ("172.16.0.1", true),
            ("172.31.255.255", true),
            ("172.32.0.0", false),
            ("192.168.1.1", true),
            ("192.169.0.1", false),
            ("169.254.169.254", true),
            ("100.63.255.255", false),
            ("100.64.0.1", true),
            ("100.127.255.255", true),
            ("100.128.0.0", false),
            ("192.0.0.8", true),
            ("192.0.2.1", true),
            ("198.18.0.1", true),
            ("198.19.255.255", true),
            ("198.20.0.0", false),
            ("198.51.100.7", true),
            ("203.0.113.9", true),
            ("224.0.0.1", true),
            ("239.255.255.250", true),
            ("240.0.0.1", true),
            ("255.255.255.255", true),
            ("1.1.1.1", false),
            ("8.8.8.8", false),
            ("93.184.216.34", false),
            ("223.255.255.255", false),
        ] {
            check(address, refused);
        }
    }

    #[test]
    fn ipv6_addresses() {
        for (address, refused) in [
            ("::", true),
            ("::1", true),
            ("::127.0.0.1", true),
            ("::8.8.8.8", true),
            ("::ffff:127.0.0.1", true),
            ("::ffff:10.1.2.3", true),
            ("::ffff:169.254.169.254", true),
            ("::ffff:100.64.0.1", true),
            ("::ffff:8.8.8.8", false),
            ("64:ff9b::7f00:1", true),
            ("64:ff9b::a00:1", true),
            ("64:ff9b::808:808", false),
            ("64:ff9b:1::1", true),
            ("100::1", true),
            ("2001::1", true),
            ("2001:db8::1", true),
            ("2002:7f00:1::", true),
            ("2002:c0a8:101::1", true),
            ("2002:808:808::1", false),
            ("3fff::1", true),
            ("3fff:1000::1", false),
            ("fc00::1", true),
            ("fd12:3456:789a::1", true),
            ("fe80::1", true),
            ("febf::1", true),
            ("fec0::1", true),
            ("ff02::1", true),
            ("ff0e::1", true),
            ("2606:4700:4700::1111", false),
            ("2a00:1450:4001:80b::200e", false),
            ("2001:4860:4860::8888", false),
        ] {
            check(address, refused);
        }
    }
}
