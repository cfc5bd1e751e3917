#[hessian_rpc::service]
trait T {
    #[hessian(throws)]
    async fn f(&self) -> i32;
}
fn main() {}
