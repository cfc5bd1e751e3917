//! The `#[service]` attribute of `hessian-rpc` (use it as `hessian_rpc::service`): a trait of
//! `async fn`s with serde argument and return types becomes
//!
//! - the trait itself, each method returning a `Send` future, with a provided
//!   `into_service(self) -> hessian_rpc::Service` that serves an implementation (arguments
//!   decoded straight from the request body, results encoded straight into the reply);
//! - `{Trait}Client`, an async typed client over a `hessian_rpc::Proxy`;
//! - `{Trait}BlockingClient`, the same over a `hessian_rpc::BlockingProxy`.
//!
//! Attributes: `#[hessian_rpc::service(api = "com.example.Api")]` names the Java interface
//! reported by `_hessian_getAttribute("java.api.class")`; on a method, `#[hessian(name = "x")]`
//! sets its remote name (default: the Rust name in lowerCamelCase, as Java names methods) and
//! `#[hessian(params = "int, Order")]` the parameter types of Caucho's mangled name (default:
//! derived from the argument types). Methods sharing a remote name are Java overloads: the
//! server registers each under `name__N` and the mangled name, and the client sends the mangled
//! name.
//!
//! A method returns `Result<T, E>` with `E: hessian_rpc::IntoFault` (such as
//! `hessian_rpc::ServiceError`, into which any error converts with `?`), or a plain `T`. The
//! clients' methods return `hessian_rpc::Result<T>`, except for a method marked
//! `#[hessian(throws)]`: its clients return `Result<T, E>` as the trait does, `E` made from the
//! call's error with `From<hessian_rpc::Error>`, which is how the per-method exception enums of
//! `hessian codegen` (a variant per declared Java exception) reach the caller typed.

#![deny(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::spanned::Spanned;
use syn::{
    Attribute, Error, FnArg, GenericArgument, Ident, ItemTrait, LitStr, Pat, PathArguments, ReturnType, Token,
    TraitItem, TraitItemFn, Type,
};

/// Arguments of the attribute itself: `api = "…"`.
#[derive(Default)]
struct ServiceArgs {
    api: Option<LitStr>,
}

impl Parse for ServiceArgs {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        let mut args = ServiceArgs::default();
        while !input.is_empty() {
            let key: Ident = input.parse()?;
            input.parse::<Token![=]>()?;
            let value: LitStr = input.parse()?;
            match key.to_string().as_str() {
                "api" => args.api = Some(value),
                _ => return Err(Error::new(key.span(), "unknown argument: expected `api = \"java.interface.Name\"`")),
            }
            if !input.is_empty() {
                input.parse::<Token![,]>()?;
            }
        }
        Ok(args)
    }
}

/// Declares a Hessian service: see the crate documentation.
#[proc_macro_attribute]
pub fn service(attr: TokenStream, item: TokenStream) -> TokenStream {
    let args = syn::parse_macro_input!(attr as ServiceArgs);
    let item = syn::parse_macro_input!(item as ItemTrait);
    match expand(args, item) {
        Ok(t) => t.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

/// One method of the trait, as the expansion needs it.
struct Method {
    attrs: Vec<Attribute>,
    ident: Ident,
    remote: String,
    params: Option<Vec<String>>,
    args: Vec<(Ident, Type)>,
    ok: Type,
    /// The error type when the method returns `Result<T, E>`.
    err: Option<Type>,
    /// `#[hessian(throws)]`: the clients return `Result<T, E>` too, `E` made from the call's
    /// `hessian_rpc::Error` by `From` (a generated per-method exception enum).
    throws: bool,
    span: Span,
}

fn expand(args: ServiceArgs, mut item: ItemTrait) -> syn::Result<TokenStream2> {
    if !item.generics.params.is_empty() || item.generics.where_clause.is_some() {
        return Err(Error::new(item.generics.span(), "a service trait cannot be generic"));
    }
    let mut methods = Vec::new();
    for it in &mut item.items {
        match it {
            TraitItem::Fn(f) => methods.push(method(f)?),
            other => return Err(Error::new(other.span(), "a service trait holds only `async fn` methods")),
        }
    }
    let trait_ident = &item.ident;
    let vis = &item.vis;
    let client = format_ident!("{}Client", trait_ident);
    let blocking = format_ident!("{}BlockingClient", trait_ident);
    let rpc = quote!(::hessian_rpc);

    // the trait: each `async fn` becomes `fn … -> impl Future<Output = …> + Send`
    let trait_fns = methods.iter().map(|m| {
        let Method { attrs, ident, args, span, .. } = m;
        let out = m.output();
        let arg_decls = args.iter().map(|(n, t)| quote!(#n: #t));
        quote_spanned! {*span=>
            #(#attrs)*
            fn #ident(&self #(, #arg_decls)*) -> impl ::std::future::Future<Output = #out> + ::std::marker::Send;
        }
    });

    let registrations = methods.iter().map(|m| {
        let ident = &m.ident;
        let remote = &m.remote;
        let names: Vec<&Ident> = m.args.iter().map(|(n, _)| n).collect();
        let types: Vec<&Type> = m.args.iter().map(|(_, t)| t).collect();
        let params = m.params_tokens();
        let call = if m.err.is_some() {
            quote!(this.#ident(#(#names),*).await)
        } else {
            quote!(::std::result::Result::<_, ::std::convert::Infallible>::Ok(this.#ident(#(#names),*).await))
        };
        quote_spanned! {m.span=>
            let builder = {
                let this = this.clone();
                builder.typed_with_params(#remote, #params, move |(#(#names,)*): (#(#types,)*)| {
                    let this = this.clone();
                    async move { #call }
                })
            };
        }
    });
    let api = args.api.as_ref().map(|a| quote!(let builder = builder.api_class(#a);));

    // remote names used more than once are overloads: their clients send the mangled name
    let overloaded = |remote: &str| methods.iter().filter(|m| m.remote == remote).count() > 1;
    let client_fns = |blocking: bool| {
        let methods = &methods;
        methods
            .iter()
            .map(|m| {
                let Method { attrs, ident, remote, args, ok, span, .. } = m;
                let arg_decls = args.iter().map(|(n, t)| quote!(#n: #t));
                let names = args.iter().map(|(n, _)| n);
                let name = if overloaded(remote) {
                    let params = m.params_tokens();
                    quote! {{
                        static NAME: ::std::sync::OnceLock<::std::string::String> = ::std::sync::OnceLock::new();
                        NAME.get_or_init(|| #rpc::service::mangle_name(#remote, &#params)).as_str()
                    }}
                } else {
                    quote!(#remote)
                };
                let docs = attrs.iter().filter(|a| a.path().is_ident("doc"));
                // `#[hessian(throws)]`: the method's own error type, made from the call's error
                let (out, conv) = match (&m.err, m.throws) {
                    (Some(err), true) => (
                        quote!(::std::result::Result<#ok, #err>),
                        quote!(.map_err(<#err as ::std::convert::From<#rpc::Error>>::from)),
                    ),
                    _ => (quote!(#rpc::Result<#ok>), quote!()),
                };
                if blocking {
                    quote_spanned! {*span=>
                        #(#docs)*
                        pub fn #ident(&self #(, #arg_decls)*) -> #out {
                            self.proxy.call_typed(#name, (#(#names,)*))#conv
                        }
                    }
                } else {
                    quote_spanned! {*span=>
                        #(#docs)*
                        pub async fn #ident(&self #(, #arg_decls)*) -> #out {
                            self.proxy.call_typed(#name, (#(#names,)*)).await #conv
                        }
                    }
                }
            })
            .collect::<Vec<_>>()
    };
    let async_fns = client_fns(false);
    let blocking_fns = client_fns(true);

    let attrs = &item.attrs;
    let client_doc = format!("A typed async client of [`{trait_ident}`] over a [`hessian_rpc::Proxy`].");
    let blocking_doc = format!("A typed blocking client of [`{trait_ident}`] over a [`hessian_rpc::BlockingProxy`].");
    let supertraits = &item.supertraits;
    let colon = if supertraits.is_empty() { quote!() } else { quote!(+) };
    Ok(quote! {
        #(#attrs)*
        #vis trait #trait_ident: ::std::marker::Send + ::std::marker::Sync + 'static #colon #supertraits {
            #(#trait_fns)*

            /// Serves this implementation as a Hessian service (Hessian 2, Hessian 1, Java's
            /// `c 2 0` hybrid and Burlap): mount it on a `hessian_rpc::HessianServer`.
            fn into_service(self) -> #rpc::Service
            where
                Self: ::std::marker::Sized,
            {
                let this = ::std::sync::Arc::new(self);
                let builder = #rpc::Service::builder();
                #api
                #(#registrations)*
                builder.build()
            }
        }

        #[doc = #client_doc]
        #[derive(Clone, Debug)]
        #vis struct #client {
            proxy: #rpc::Proxy,
        }

        impl #client {
            /// A client calling the service behind `proxy`.
            pub fn new(proxy: #rpc::Proxy) -> Self {
                #client { proxy }
            }

            /// The underlying proxy.
            pub fn proxy(&self) -> &#rpc::Proxy {
                &self.proxy
            }

            #(#async_fns)*
        }

        #[doc = #blocking_doc]
        #[derive(Clone, Debug)]
        #vis struct #blocking {
            proxy: #rpc::BlockingProxy,
        }

        impl #blocking {
            /// A client calling the service behind `proxy`.
            pub fn new(proxy: #rpc::BlockingProxy) -> Self {
                #blocking { proxy }
            }

            /// The underlying proxy.
            pub fn proxy(&self) -> &#rpc::BlockingProxy {
                &self.proxy
            }

            #(#blocking_fns)*
        }
    })
}

impl Method {
    /// The parameter types of the method's mangled name, as an expression of type
    /// `Vec<String>`: the attribute's list, or the ones the argument types give.
    fn params_tokens(&self) -> TokenStream2 {
        match &self.params {
            Some(p) => quote!(::std::vec![#(::std::string::String::from(#p)),*]),
            None => {
                let types = self.args.iter().map(|(_, t)| t);
                quote!(<(#(#types,)*) as ::hessian_rpc::FromArgs>::mangled_params())
            }
        }
    }

    /// The trait method's output type.
    fn output(&self) -> TokenStream2 {
        let ok = &self.ok;
        match &self.err {
            Some(err) => quote!(::std::result::Result<#ok, #err>),
            None => quote!(#ok),
        }
    }
}

fn method(f: &mut TraitItemFn) -> syn::Result<Method> {
    let sig = &f.sig;
    let span = sig.span();
    if sig.asyncness.is_none() {
        return Err(Error::new(sig.fn_token.span(), "service methods must be `async fn`"));
    }
    if f.default.is_some() {
        return Err(Error::new(span, "service methods cannot have a default body"));
    }
    if !sig.generics.params.is_empty() || sig.generics.where_clause.is_some() {
        return Err(Error::new(sig.generics.span(), "service methods cannot be generic"));
    }
    if sig.variadic.is_some() || sig.unsafety.is_some() || sig.abi.is_some() || sig.constness.is_some() {
        return Err(Error::new(span, "service methods are plain `async fn`s"));
    }
    let mut inputs = sig.inputs.iter();
    match inputs.next() {
        Some(FnArg::Receiver(r)) if r.reference.is_some() && r.mutability.is_none() && r.colon_token.is_none() => {}
        Some(other) => return Err(Error::new(other.span(), "the first parameter of a service method must be `&self`")),
        None => return Err(Error::new(span, "service methods take `&self`")),
    }
    let mut args = Vec::new();
    for input in inputs {
        let FnArg::Typed(pt) = input else {
            return Err(Error::new(input.span(), "unexpected receiver"));
        };
        let Pat::Ident(pi) = &*pt.pat else {
            return Err(Error::new(pt.pat.span(), "service method arguments must be plain names"));
        };
        if pi.by_ref.is_some() || pi.subpat.is_some() {
            return Err(Error::new(pt.pat.span(), "service method arguments must be plain names"));
        }
        if let Type::Reference(r) = &*pt.ty {
            return Err(Error::new(
                r.span(),
                "service method arguments are decoded from the request: use owned types (`String`, not `&str`)",
            ));
        }
        args.push((pi.ident.clone(), (*pt.ty).clone()));
    }
    if args.len() > 8 {
        return Err(Error::new(span, "service methods take at most 8 arguments"));
    }
    let (ok, err) = match &sig.output {
        ReturnType::Default => (syn::parse_quote!(()), None),
        ReturnType::Type(_, ty) => split_result(ty)?,
    };

    let mut remote = camel_case(&sig.ident.to_string());
    let mut params = None;
    let mut throws = false;
    let mut attrs = Vec::new();
    for a in f.attrs.drain(..) {
        if !a.path().is_ident("hessian") {
            attrs.push(a);
            continue;
        }
        a.parse_nested_meta(|meta| {
            if meta.path.is_ident("throws") {
                throws = true;
                return Ok(());
            }
            let value: LitStr = meta.value()?.parse()?;
            if meta.path.is_ident("name") {
                remote = value.value();
                if remote.is_empty() {
                    return Err(meta.error("the remote name cannot be empty"));
                }
            } else if meta.path.is_ident("params") {
                let list: Vec<String> =
                    value.value().split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect();
                if list.len() != args.len() {
                    return Err(meta.error(format!(
                        "`params` names {} types, the method has {} arguments",
                        list.len(),
                        args.len()
                    )));
                }
                params = Some(list);
            } else {
                return Err(meta.error("unknown attribute: expected `name = \"…\"`, `params = \"…\"` or `throws`"));
            }
            Ok(())
        })?;
    }
    if throws && err.is_none() {
        return Err(Error::new(span, "`#[hessian(throws)]` needs a method returning `Result<T, E>`"));
    }
    Ok(Method { attrs, ident: sig.ident.clone(), remote, params, args, ok, err, throws, span })
}

/// `Result<T, E>` gives `(T, Some(E))`; any other type `(type, None)`.
fn split_result(ty: &Type) -> syn::Result<(Type, Option<Type>)> {
    if let Type::Path(p) = ty {
        if let Some(last) = p.path.segments.last() {
            if last.ident == "Result" {
                if let PathArguments::AngleBracketed(ab) = &last.arguments {
                    let types: Vec<&Type> = ab
                        .args
                        .iter()
                        .filter_map(|a| match a {
                            GenericArgument::Type(t) => Some(t),
                            _ => None,
                        })
                        .collect();
                    return match types[..] {
                        [ok, err] => Ok((ok.clone(), Some(err.clone()))),
                        _ => Err(Error::new(
                            ty.span(),
                            "return `Result<T, E>` with both types spelled out (E: hessian_rpc::IntoFault)",
                        )),
                    };
                }
            }
        }
    }
    Ok((ty.clone(), None))
}

/// `get_items` -> `getItems` (Java's method naming).
fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.trim_start_matches('_').chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}
