//! [`Shared`]: an `Arc` whose sharing survives a Hessian round trip as value references.

use super::SHARED_TOKEN;
use serde::de::{self, Deserialize, Deserializer, Visitor};
use serde::ser::{Serialize, Serializer};
use std::any::Any;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;
use std::rc::Rc;
use std::sync::Arc;

thread_local! {
    static ADDR: Cell<usize> = const { Cell::new(0) };
    /// Deserializer -> visitor: the already decoded value a `Q` reference points to.
    static LOOKUP: RefCell<Option<Rc<dyn Any>>> = const { RefCell::new(None) };
    /// Visitor -> deserializer: the freshly decoded value, to remember for later references.
    static REGISTER: RefCell<Option<Rc<dyn Any>>> = const { RefCell::new(None) };
}

/// An `Arc<T>` that this crate serializes once per message: every further occurrence of the same
/// allocation is written as a Hessian reference (`Q n`), as Java writes a shared object, and
/// decoding a reference yields a clone of the same `Arc`. Struct, list and map values can be
/// shared (scalars have no references in Hessian and are simply repeated). In other serde
/// formats a `Shared<T>` is a plain `T`.
///
/// ```
/// use hessian::serde::Shared;
/// use std::sync::Arc;
///
/// #[derive(serde::Serialize, serde::Deserialize)]
/// struct Address { city: String }
///
/// let home = Shared(Arc::new(Address { city: "London".into() }));
/// let bytes = hessian::serde::to_vec(&vec![home.clone(), home]).unwrap();
/// let back: Vec<Shared<Address>> = hessian::serde::from_slice(&bytes).unwrap();
/// assert!(Arc::ptr_eq(&back[0].0, &back[1].0));
/// ```
#[derive(Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Shared<T>(pub Arc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T> Shared<T> {
    /// Wraps a new value.
    pub fn new(v: T) -> Self {
        Shared(Arc::new(v))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> From<Arc<T>> for Shared<T> {
    fn from(a: Arc<T>) -> Self {
        Shared(a)
    }
}

/// The address published by the enclosing `Shared::serialize`, if any.
pub(crate) fn take_addr() -> Option<usize> {
    let a = ADDR.with(|c| c.replace(0));
    (a != 0).then_some(a)
}

/// For the deserializer: publishes the value a reference points to and runs `f`.
pub(crate) fn with_lookup<R>(v: Rc<dyn Any>, f: impl FnOnce() -> R) -> R {
    LOOKUP.with(|l| *l.borrow_mut() = Some(v));
    let r = f();
    LOOKUP.with(|l| l.borrow_mut().take());
    r
}

/// For the deserializer: clears the registration slot before decoding a shared value.
pub(crate) fn clear_registered() {
    REGISTER.with(|r| r.borrow_mut().take());
}

/// For the deserializer: the value the visitor of a freshly decoded shared value registered.
pub(crate) fn take_registered() -> Option<Rc<dyn Any>> {
    REGISTER.with(|r| r.borrow_mut().take())
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        ADDR.with(|c| c.set(Arc::as_ptr(&self.0) as *const u8 as usize));
        let r = s.serialize_newtype_struct(SHARED_TOKEN, &*self.0);
        ADDR.with(|c| c.set(0));
        r
    }
}

impl<'de, T: Deserialize<'de> + 'static> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_newtype_struct(SHARED_TOKEN, SharedVisitor(PhantomData))
    }
}

struct SharedVisitor<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de> + 'static> Visitor<'de> for SharedVisitor<T> {
    type Value = Shared<T>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a shared value")
    }

    /// A reference to a value decoded earlier (published by this crate's deserializer).
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        let v = LOOKUP.with(|l| l.borrow_mut().take());
        match v.as_ref().and_then(|v| v.downcast_ref::<Arc<T>>()) {
            Some(a) => Ok(Shared(a.clone())),
            None => Err(E::custom("reference to a value of another type")),
        }
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let a = Arc::new(T::deserialize(d)?);
        REGISTER.with(|r| *r.borrow_mut() = Some(Rc::new(a.clone()) as Rc<dyn Any>));
        Ok(Shared(a))
    }
}
