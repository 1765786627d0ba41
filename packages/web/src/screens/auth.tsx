export function Login() {
  return <p>login</p>;
}
export function Register() {
  return <p>register</p>;
}
