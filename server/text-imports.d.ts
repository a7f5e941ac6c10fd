// Files bundled as text (Bun `with { type: "text" }`), e.g. the agent install script.
declare module "*.sh" {
  const text: string;
  export default text;
}
