//! The code `build.rs` generated: a Rust server of the generated trait and its typed client,
//! with a declared exception arriving as its variant with its field, a null-free field and a
//! method's return value declared non-null, and an ordered map keeping its order.

#[cfg(generated)]
mod generated {
    use hessian_codegen_example::{BlankNameException, GreetError, Greeter, GreeterClient, Greeting};
    use hessian_rpc::{Client, HessianServer};

    struct Hello;

    impl Greeter for Hello {
        async fn greet(&self, name: String, times: i32) -> Result<Greeting, GreetError> {
            if name.is_empty() {
                return Err(BlankNameException { position: 1, message: Some("no name".into()), cause: None }.into());
            }
            let mut words = hessian_rpc::indexmap::IndexMap::new();
            words.insert("hello".to_owned(), Some(times));
            words.insert(name.clone(), None);
            Ok(Greeting { text: format!("hello, {name}"), at: Some(std::time::UNIX_EPOCH), words: Some(words) })
        }
    }

    #[tokio::test]
    async fn the_generated_client_and_server_talk() {
        let server = HessianServer::builder()
            .mount("/greeter", Hello.into_service())
            .build()
            .bind("127.0.0.1:0")
            .await
            .expect("bind");
        let client = GreeterClient::new(Client::new().proxy(&server.url("/greeter")).expect("url"));
        let g = client.greet("zed".into(), 2).await.expect("greet");
        assert_eq!(g.text, "hello, zed");
        assert_eq!(g.at, Some(std::time::UNIX_EPOCH));
        let words = g.words.expect("words");
        assert_eq!(words.keys().collect::<Vec<_>>(), ["hello", "zed"]);
        assert_eq!(words["zed"], None);
        match client.greet(String::new(), 1).await {
            Err(GreetError::BlankNameException(e)) => {
                assert_eq!(e.position, 1);
                assert_eq!(e.message.as_deref(), Some("no name"));
            }
            other => panic!("{other:?}"),
        }
        server.shutdown().await;
    }
}

#[cfg(not(generated))]
#[test]
fn the_generated_client_and_server_talk() {
    assert!(std::env::var_os("CI").is_none(), "the build.rs example must be generated in CI");
    eprintln!("SKIPPING the build.rs example: no javac when it was built");
}
