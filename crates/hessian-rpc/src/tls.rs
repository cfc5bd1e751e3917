//! TLS through rustls (with the `ring` provider): the client's settings for `https://` URLs and
//! the server's from a certificate chain and key in PEM.
//!
//! The client trusts the Mozilla roots of `webpki-roots` unless told otherwise, plus any root
//! given to [`ClientBuilder::add_root_certificate`](crate::ClientBuilder::add_root_certificate)
//! (a company CA, or a server's self-signed certificate); a complete `rustls::ClientConfig` can
//! replace all of it ([`ClientBuilder::tls_config`](crate::ClientBuilder::tls_config)). The
//! server takes a `rustls::ServerConfig` ([`HessianServerBuilder::tls`](crate::HessianServerBuilder::tls)),
//! for example from [`server_config_from_pem`].

use crate::error::{Error, Result};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use std::sync::Arc;

pub use rustls;

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn tls_error(what: &str, e: impl std::fmt::Display) -> Error {
    Error::Tls(format!("{what}: {e}"))
}

/// The certificates of a PEM document (every `CERTIFICATE` block), e.g. a CA bundle or a
/// server's self-signed certificate.
pub fn certificates_from_pem(pem: &[u8]) -> Result<Vec<CertificateDer<'static>>> {
    let certs: Vec<_> = CertificateDer::pem_slice_iter(pem)
        .collect::<std::result::Result<_, _>>()
        .map_err(|e| tls_error("reading PEM certificates", e))?;
    if certs.is_empty() {
        return Err(Error::Tls("no CERTIFICATE block in the PEM document".into()));
    }
    Ok(certs)
}

/// The client's TLS settings: the built-in roots (when `built_in` is set) and `extra`, HTTP/1.1
/// by ALPN.
pub(crate) fn client_config(built_in: bool, extra: &[CertificateDer<'static>]) -> Result<Arc<rustls::ClientConfig>> {
    let mut roots = rustls::RootCertStore::empty();
    if built_in {
        roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    }
    for c in extra {
        roots.add(c.clone()).map_err(|e| tls_error("adding a root certificate", e))?;
    }
    let mut config = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_error("TLS versions", e))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// A server configuration from a PEM certificate chain (the server's certificate first) and its
/// PEM private key (PKCS#8, PKCS#1 or SEC1), HTTP/1.1 by ALPN.
pub fn server_config_from_pem(cert_chain: &[u8], key: &[u8]) -> Result<Arc<rustls::ServerConfig>> {
    let chain = certificates_from_pem(cert_chain)?;
    let key = PrivateKeyDer::from_pem_slice(key).map_err(|e| tls_error("reading the PEM private key", e))?;
    let mut config = rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| tls_error("TLS versions", e))?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .map_err(|e| tls_error("the certificate and key", e))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}
