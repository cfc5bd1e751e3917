#[hessian_rpc::service]
trait T {
    #[hessian(params = "int")]
    async fn f(&self, a: i32, b: i32) -> i32;
}
fn main() {}
