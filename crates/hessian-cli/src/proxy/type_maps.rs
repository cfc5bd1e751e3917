//! Reading Hessian 2.1 referring messages (`docs/negotiation.md`) as the proxy sees them. A
//! referring message (`H 02 01 T 30 <digest> …`) leaves out the class definitions of a type map
//! that an earlier plain message defined; the proxy learns each map from the plain Hessian 2
//! messages it forwards (section 2.2: a message's `C` entries in order) and, for a referring
//! message whose map it saw, rebuilds the plain message (`H 02 00`, the map's definitions where
//! the first value starts, then the rest unchanged), which the ordinary decoder reads.

use hessian::negotiate::{message_classes, to_hex, Digest, TypeMap, DIGEST_MARKER};
use hessian::Limits;
use std::collections::{HashMap, VecDeque};

/// Maps kept at most (the oldest learned are forgotten first).
const MAX_MAPS: usize = 256;
/// `H 02 01 T 30` and the 16 digest bytes.
const REFERRING_HEADER: usize = 21;

/// The type maps learned from plain messages, by digest.
#[derive(Default)]
pub struct TypeMaps {
    maps: HashMap<Digest, TypeMap>,
    order: VecDeque<Digest>,
}

/// A referring message rebuilt as the plain message it stands for.
#[derive(Debug, Clone)]
pub struct Expanded {
    /// The map's digest, in hex.
    pub digest: String,
    /// The plain message.
    pub plain: Vec<u8>,
}

impl TypeMaps {
    /// Learns the map a complete plain Hessian 2 message defines (nothing for other messages, or
    /// one that defines no class).
    pub fn learn(&mut self, body: &[u8]) {
        if !body.starts_with(b"H\x02\x00") {
            return;
        }
        let Ok(classes) = message_classes(body, Limits::default()) else { return };
        if classes.is_empty() {
            return;
        }
        let Ok(map) = TypeMap::new(classes) else { return };
        let digest = map.digest();
        if self.maps.insert(digest, map).is_none() {
            self.order.push_back(digest);
            while self.order.len() > MAX_MAPS {
                if let Some(old) = self.order.pop_front() {
                    self.maps.remove(&old);
                }
            }
        }
    }

    /// `None` for a message that is not referring; the plain message it stands for; or why it
    /// cannot be rebuilt (a map the proxy did not see, a malformed header).
    pub fn expand(&self, body: &[u8]) -> Option<Result<Expanded, String>> {
        if !hessian::negotiate::is_referring(body) {
            return None;
        }
        Some(self.rebuild(body))
    }

    fn rebuild(&self, body: &[u8]) -> Result<Expanded, String> {
        if body.len() < REFERRING_HEADER || body[3] != b'T' || body[4] != DIGEST_MARKER {
            return Err("malformed referring header (expected H 02 01 T 30 and 16 digest bytes)".into());
        }
        let mut digest: Digest = [0; 16];
        digest.copy_from_slice(&body[5..REFERRING_HEADER]);
        let hex = to_hex(&digest);
        let Some(map) = self.maps.get(&digest) else {
            return Err(format!(
                "Hessian 2.1 message referring to type map {hex}, which this proxy has not seen defined \
                 (it learns maps from the plain messages it forwards)"
            ));
        };
        let rest = &body[REFERRING_HEADER..];
        // where the first value starts: after `C method argc` in a call, after `R` or `F` in a reply
        let values_at = match rest.first() {
            Some(b'C') => {
                let mut dec = hessian::h2::Decoder::from_slice(rest);
                hessian::h2::message::read_call_header(&mut dec).map_err(|e| format!("referring call: {e}"))?;
                usize::try_from(dec.offset()).map_err(|_| "offset out of range".to_owned())?
            }
            Some(b'R' | b'F') => 1,
            Some(other) => return Err(format!("referring message: 0x{other:02x} where C, R or F belongs")),
            None => return Err("referring message ends after its header".into()),
        };
        let mut plain = Vec::with_capacity(body.len() + map.definitions().len());
        plain.extend_from_slice(b"H\x02\x00");
        plain.extend_from_slice(&rest[..values_at]);
        plain.extend_from_slice(map.definitions());
        plain.extend_from_slice(&rest[values_at..]);
        Ok(Expanded { digest: hex, plain })
    }
}
