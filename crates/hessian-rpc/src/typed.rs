//! Typed calls with serde: arguments are tuples of `Serialize` types, replies any
//! `DeserializeOwned` type, mapped to Hessian by `hessian::serde` (struct = Java object named by
//! `#[serde(rename = "java.class.Name")]`). Works in every protocol: values cross the wire as
//! [`Value`]s, which the protocol layer gives the Hessian 2 shape.
//!
//! ```no_run
//! # async fn run(proxy: hessian_rpc::Proxy) -> hessian_rpc::Result<()> {
//! let sum: i32 = proxy.call_typed("add", (2, 3)).await?;
//! # Ok(()) }
//! ```

use crate::error::{Error, Result};
use hessian::Value;
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Converts a serde value to a [`Value`] (through its Hessian 2 encoding).
pub fn to_value<T: Serialize + ?Sized>(v: &T) -> Result<Value> {
    let bytes = hessian::serde::to_vec(v).map_err(|e| Error::Type(format!("cannot serialize: {e}")))?;
    hessian::h2::from_slice(&bytes).map_err(|e| Error::Type(format!("cannot serialize: {e}")))
}

/// Converts a [`Value`] to a serde type (through its Hessian 2 encoding).
pub fn from_value<T: DeserializeOwned>(v: &Value) -> Result<T> {
    let bytes = hessian::h2::to_vec(v).map_err(|e| Error::Type(format!("cannot encode reply: {e}")))?;
    hessian::serde::from_slice(&bytes).map_err(unexpected)
}

/// Encodes a call's arguments one after the other as one Hessian 2 message, so that they keep
/// the one reference space they had on the wire: an object passed twice arrives as the object
/// and a reference to it, and a later argument's references count the values before it.
fn encode_args(values: &[Value]) -> Result<Vec<u8>> {
    let mut e = hessian::h2::Encoder::vec();
    for v in values {
        e.write_value(v).map_err(|e| Error::Type(format!("cannot encode arguments: {e}")))?;
    }
    Ok(e.into_vec())
}

fn unexpected(e: hessian::Error) -> Error {
    Error::Type(format!("unexpected value: {e}"))
}

/// Call arguments: a tuple of `Serialize` types (`()`, `(a,)`, `(a, b)`, … up to 8).
pub trait IntoArgs {
    /// The arguments as values.
    fn into_values(self) -> Result<Vec<Value>>;
}

/// Handler arguments: a tuple of `DeserializeOwned` types, decoded from the call's values.
pub trait FromArgs: Sized {
    /// Number of arguments.
    const LEN: usize;
    /// Decodes the arguments (the count has been checked by the dispatcher).
    fn from_values(values: Vec<Value>) -> Result<Self>;
}

macro_rules! tuple_args {
    ($len:expr; $($t:ident $v:ident),*) => {
        impl<$($t: Serialize),*> IntoArgs for ($($t,)*) {
            #[allow(unused_variables, non_snake_case)]
            fn into_values(self) -> Result<Vec<Value>> {
                let ($($v,)*) = self;
                Ok(vec![$(to_value(&$v)?),*])
            }
        }

        impl<$($t: DeserializeOwned),*> FromArgs for ($($t,)*) {
            const LEN: usize = $len;
            #[allow(unused_variables, unused_mut)]
            fn from_values(values: Vec<Value>) -> Result<Self> {
                if values.len() != $len {
                    return Err(Error::Type(format!("expected {} arguments, got {}", $len, values.len())));
                }
                let bytes = encode_args(&values)?;
                let mut de = hessian::serde::Deserializer::from_slice(&bytes);
                Ok(($(de.deserialize_value::<$t>().map_err(unexpected)?,)*))
            }
        }
    };
}

tuple_args!(0;);
tuple_args!(1; A a);
tuple_args!(2; A a, B b);
tuple_args!(3; A a, B b, C c);
tuple_args!(4; A a, B b, C c, D d);
tuple_args!(5; A a, B b, C c, D d, E e);
tuple_args!(6; A a, B b, C c, D d, E e, F f);
tuple_args!(7; A a, B b, C c, D d, E e, F f, G g);
tuple_args!(8; A a, B b, C c, D d, E e, F f, G g, H h);

/// Declares a typed client stub: a struct wrapping a [`Proxy`](crate::Proxy) with one async
/// method per remote method.
///
/// ```no_run
/// use hessian_rpc::client_stub;
/// client_stub! {
///     /// A client of the W1/W2 service.
///     pub struct BenchClient {
///         /// W1.
///         fn get_items("getItems", n: i32) -> Vec<hessian::Value>;
///     }
/// }
/// # async fn run(proxy: hessian_rpc::Proxy) -> hessian_rpc::Result<()> {
/// let items = BenchClient::new(proxy).get_items(10).await?;
/// # Ok(()) }
/// ```
#[macro_export]
macro_rules! client_stub {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[$mmeta:meta])*
                fn $method:ident($remote:literal $(, $arg:ident : $ty:ty)* $(,)?) -> $ret:ty;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug)]
        $vis struct $name {
            proxy: $crate::Proxy,
        }

        impl $name {
            /// Wraps a proxy for the service's URL.
            $vis fn new(proxy: $crate::Proxy) -> Self {
                $name { proxy }
            }

            /// The underlying proxy.
            $vis fn proxy(&self) -> &$crate::Proxy {
                &self.proxy
            }

            $(
                $(#[$mmeta])*
                $vis async fn $method(&self $(, $arg: $ty)*) -> $crate::Result<$ret> {
                    self.proxy.call_typed($remote, ($($arg,)*)).await
                }
            )*
        }
    };
}
