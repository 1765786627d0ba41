export function Lobby() {
  return <p>lobby</p>;
}
