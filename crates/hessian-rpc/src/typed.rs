//! Typed calls with serde, straight to the wire: arguments are tuples of `Serialize` types
//! written into the call's body as one message ([`hessian::serde::message::CallWriter`]), and a
//! server method's arguments are decoded from the request body into the tuple of its
//! `Deserialize` types ([`hessian::serde::message::CallReader`]), in every protocol. No
//! [`Value`](hessian::Value) is built on the way. Structs map to Java objects named by
//! `#[serde(rename = "java.class.Name")]` (`docs/serde-mapping.md`).
//!
//! ```no_run
//! # async fn run(proxy: hessian_rpc::Proxy) -> hessian_rpc::Result<()> {
//! let sum: i32 = proxy.call_typed("add", (2, 3)).await?;
//! # Ok(()) }
//! ```

use hessian::serde::message::{CallReader, CallWriter};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Call arguments: a tuple of `Serialize` types (`()`, `(a,)`, `(a, b)`, … up to 8). Sealed:
/// implemented for those tuples only.
pub trait IntoArgs: private::Sealed {
    /// Number of arguments.
    fn count(&self) -> usize;
    /// Writes the arguments, in order, into the call.
    fn write_args(&self, w: &mut CallWriter) -> hessian::Result<()>;
}

/// An argument that could not be decoded: its index (from 0) and the codec's error, whose
/// offset is an offset into the request body.
#[derive(Debug)]
pub struct ArgError {
    /// Which argument (0-based).
    pub index: usize,
    /// What went wrong, with the offset in the request body.
    pub error: hessian::Error,
}

/// Handler arguments: a tuple of `DeserializeOwned` types, decoded from the request body.
/// Sealed: implemented for the tuples of up to 8 types only.
pub trait FromArgs: Sized + private::Sealed {
    /// Number of arguments.
    const LEN: usize;
    /// Decodes the arguments, in order, from the call.
    fn read_args(r: &mut CallReader<'_>) -> Result<Self, ArgError>;
    /// The parameter types as Caucho's mangling names them (`int`, `string`, `Order`, …; see
    /// [`hessian::serde::mangled_type_name`]).
    fn mangled_params() -> Vec<String>;
}

mod private {
    /// Keeps [`super::IntoArgs`] and [`super::FromArgs`] implemented by this crate only.
    pub trait Sealed {}
}

macro_rules! tuple_args {
    ($len:expr; $($t:ident $v:ident $i:tt),*) => {
        impl<$($t),*> private::Sealed for ($($t,)*) {}

        impl<$($t: Serialize),*> IntoArgs for ($($t,)*) {
            fn count(&self) -> usize {
                $len
            }

            #[allow(unused_variables)]
            fn write_args(&self, w: &mut CallWriter) -> hessian::Result<()> {
                $(w.arg(&self.$i)?;)*
                Ok(())
            }
        }

        impl<$($t: DeserializeOwned),*> FromArgs for ($($t,)*) {
            const LEN: usize = $len;

            #[allow(unused_variables)]
            fn read_args(r: &mut CallReader<'_>) -> Result<Self, ArgError> {
                Ok(($(r.arg::<$t>().map_err(|error| ArgError { index: $i, error })?,)*))
            }

            fn mangled_params() -> Vec<String> {
                vec![$(hessian::serde::mangled_type_name::<$t>()),*]
            }
        }
    };
}

tuple_args!(0;);
tuple_args!(1; A a 0);
tuple_args!(2; A a 0, B b 1);
tuple_args!(3; A a 0, B b 1, C c 2);
tuple_args!(4; A a 0, B b 1, C c 2, D d 3);
tuple_args!(5; A a 0, B b 1, C c 2, D d 3, E e 4);
tuple_args!(6; A a 0, B b 1, C c 2, D d 3, E e 4, F f 5);
tuple_args!(7; A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6);
tuple_args!(8; A a 0, B b 1, C c 2, D d 3, E e 4, F f 5, G g 6, H h 7);

/// Declares a typed client stub: a struct wrapping a [`Proxy`](crate::Proxy) with one async
/// method per remote method. The [`service`](macro@crate::service) attribute macro derives a client
/// (and the server) from a trait instead; this is for services declared elsewhere.
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
