#[hessian_rpc::service]
trait T {
    async fn f(&self, name: &str) -> i32;
}
fn main() {}
