//! Errors of the RPC layer: remote faults, transport and codec failures.

use crate::fault::{DetailError, RemoteFault};

/// Everything a remote call can fail with. Its `Debug` form is short: a fault shows its code,
/// message, exception class, causes and frame count ([`RemoteFault`]'s), not every frame.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The server answered with a fault (a remote exception).
    #[error("remote fault: {0}")]
    Fault(#[from] RemoteFault),
    /// The server answered with a fault of an exception class the method declares, but its
    /// detail does not fit that exception's fields (typed clients of generated code).
    #[error("remote fault {fault}: {error}")]
    Exception {
        /// The fault, with everything the server sent.
        fault: RemoteFault,
        /// Why the detail does not fit.
        error: DetailError,
    },
    /// The server answered with an HTTP status other than 200.
    #[error("HTTP status {status}{}: {body}", content_type.as_deref().map(|t| format!(" ({t})")).unwrap_or_default())]
    Http {
        /// The status code.
        status: http::StatusCode,
        /// The response's `Content-Type`, if any.
        content_type: Option<String>,
        /// The start of the response body as text: an HTML page's title or first heading, else
        /// its first line; cut at 200 characters.
        body: String,
    },
    /// The server answered HTTP 200 with something that is not a reply of the protocol in use
    /// (an HTML page of a proxy or an application server, say).
    #[error("the reply is not Hessian: HTTP {status}, Content-Type {}: {body:?}", content_type.as_deref().unwrap_or("none"))]
    NotHessian {
        /// The status code.
        status: u16,
        /// The response's `Content-Type`, if any.
        content_type: Option<String>,
        /// The start of the body as text: an HTML page's title or first heading, else its first
        /// line; cut at 200 characters.
        body: String,
    },
    /// A configured request header cannot be sent: its name is not an HTTP token or its value
    /// holds a line break or another control character.
    #[error("invalid request header {name:?}: {value:?}")]
    InvalidHeader {
        /// The header's name.
        name: String,
        /// Its value.
        value: String,
    },
    /// The call could not be encoded or the reply could not be decoded.
    #[error("codec error: {0}")]
    Codec(#[from] hessian::Error),
    /// The reply could not be decoded: not a reply of the protocol in use, or a value that is
    /// not of the declared return type. The error's offset is an offset into the reply body.
    #[error("bad reply: {0}")]
    Reply(#[source] hessian::Error),
    /// Connecting, sending or receiving failed.
    #[error("transport error: {0}")]
    Transport(String),
    /// The TLS settings could not be made (a bad certificate or key).
    #[error("TLS: {0}")]
    Tls(String),
    /// The call did not complete within the configured timeout.
    #[error("call timed out after {0:?}")]
    Timeout(std::time::Duration),
    /// The URL is not a valid `http://` URL.
    #[error("invalid URL {url:?}: {reason}")]
    InvalidUrl {
        /// The URL as given.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// An I/O error (binding a listener, starting a runtime).
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

impl Error {
    /// The remote fault, if this error is one.
    pub fn fault(&self) -> Option<&RemoteFault> {
        match self {
            Error::Fault(f) | Error::Exception { fault: f, .. } => Some(f),
            _ => None,
        }
    }
}

/// `e` and its sources, `: `-separated.
pub(crate) fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cur = e.source();
    while let Some(c) = cur {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cur = c.source();
    }
    s
}

/// Result alias of the RPC layer.
pub type Result<T, E = Error> = std::result::Result<T, E>;
