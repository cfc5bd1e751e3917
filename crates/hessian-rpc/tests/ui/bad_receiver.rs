#[hessian_rpc::service]
trait T {
    async fn f(&mut self) -> i32;
}
fn main() {}
