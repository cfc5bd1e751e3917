struct NotSerde;

#[hessian_rpc::service]
trait T {
    async fn f(&self, x: NotSerde) -> i32;
}
fn main() {}
