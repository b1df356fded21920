/** A buttons column's head in a console table: named for screen readers, blank to the eye. */
export const ActionHead = () => (
  <th scope="col">
    <span className="cs-visually-hidden">Action</span>
  </th>
);
