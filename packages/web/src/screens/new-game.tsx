export default function Screen(props: { id?: string; tab?: string | null }) {
  return <p>{props.id}</p>;
}
