#[hessian_rpc::service]
trait T {
    fn f(&self) -> i32;
}
fn main() {}
