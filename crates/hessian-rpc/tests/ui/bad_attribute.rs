#[hessian_rpc::service]
trait T {
    #[hessian(nmae = "g")]
    async fn f(&self) -> i32;
}
fn main() {}
