#[hessian_rpc::service]
trait T {
    async fn f(&self) -> std::io::Result<i32>;
}
fn main() {}
